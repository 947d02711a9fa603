import { useLoaderData } from "react-router";
import { Container } from "../components/layout/container.tsx";
import { postSummaries } from "../content/blog-posts.ts";
import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import { BlogFilters, PostCard } from "../sections/pages/blog.tsx";

export function loader() {
  return { posts: postSummaries() };
}

export const meta = () => pageMeta(pages.blog);

export default function Blog() {
  const { posts } = useLoaderData<typeof loader>();
  const [featured, ...rest] = posts;
  return (
    <>
      <PageHero eyebrow="Blog" title="Latest posts" lead={pages.blog.description} />
      <Container className="py-12 sm:py-16">
        <BlogFilters count={posts.length} />
        <ul role="list" className="mt-10 grid gap-8 md:grid-cols-3">
          {featured && (
            <li className="md:col-span-3">
              <PostCard post={featured} featured lazy={false} />
            </li>
          )}
          {rest.map((post) => (
            <li key={post.slug}>
              <PostCard post={post} />
            </li>
          ))}
        </ul>
      </Container>
    </>
  );
}
