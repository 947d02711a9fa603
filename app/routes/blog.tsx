import { useLoaderData } from "react-router";
import { Container } from "../components/layout/container.tsx";
import { postSummaries } from "../content/blog-posts.ts";
import { pages } from "../content/pages.ts";
import { formatDate } from "../lib/dates.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";

export function loader() {
  return { posts: postSummaries() };
}

export const meta = () => pageMeta(pages.blog);

export default function Blog() {
  const { posts } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHero eyebrow="Blog" title="Latest posts" lead={pages.blog.description} />
      <Container className="py-12">
        <ul className="grid gap-8 sm:grid-cols-2">
          {posts.map((post) => (
            <li key={post.slug}>
              <a
                href={`/blog/${post.slug}`}
                className="block rounded-xl border border-border p-5 hover:shadow-md"
              >
                <p className="text-sm text-muted-foreground">{formatDate(post.date)}</p>
                <h2 className="mt-2 text-xl font-semibold">{post.title}</h2>
                <p className="mt-2 text-muted-foreground">{post.description}</p>
              </a>
            </li>
          ))}
        </ul>
      </Container>
    </>
  );
}
