import { useLoaderData } from "react-router";
import { Container } from "../components/layout/container.tsx";
import { findPost } from "../content/blog-posts.ts";
import { pages } from "../content/pages.ts";
import { formatDate } from "../lib/dates.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/blog-post";

/** Runs at build time for every post (and for the blog's not-found page, served for unknown slugs). */
export function loader({ params }: Route.LoaderArgs) {
  return { post: findPost(params.slug) ?? null };
}

export const meta = ({ data }: Route.MetaArgs) => {
  const post = data?.post;
  if (!post)
    return [{ title: "Blog Post Not Found · Revwise" }, { name: "robots", content: "noindex" }];
  return pageMeta(
    { path: `/blog/${post.slug}`, title: `${post.title} · Revwise`, description: post.description },
    { type: "article", publishedTime: post.date },
  );
};

export function BlogPostNotFound() {
  return (
    <Container className="py-24 text-center">
      <title>Blog Post Not Found · Revwise</title>
      <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">
        Blog Post Not Found
      </h1>
      <p className="mx-auto mt-4 max-w-xl text-lg text-muted-foreground">
        Sorry, the blog post you're looking for hasn't been published yet or may have been moved.
      </p>
      <a
        href={pages.blog.path}
        className="mt-8 inline-block font-semibold text-primary underline underline-offset-4"
      >
        Back to the blog
      </a>
    </Container>
  );
}

export default function BlogPost() {
  const { post } = useLoaderData<typeof loader>();
  if (!post) return <BlogPostNotFound />;
  return (
    <Container className="py-12">
      <article className="mx-auto max-w-3xl">
        <p className="text-sm text-muted-foreground">
          {post.category} · {formatDate(post.date)}
        </p>
        <h1 className="mt-3 text-4xl font-bold tracking-tight text-ink">{post.title}</h1>
        <p className="mt-4 text-lg text-muted-foreground">{post.description}</p>
        <div className="prose mt-10" dangerouslySetInnerHTML={{ __html: post.html }} />
      </article>
    </Container>
  );
}
