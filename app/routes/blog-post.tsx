import { useLoaderData } from "react-router";
import { Container } from "../components/layout/container.tsx";
import { Button } from "../components/ui/button.tsx";
import { Icon } from "../components/ui/icon.tsx";
import { findPost, postSummaries, type PostSummary } from "../content/blog-posts.ts";
import { pages } from "../content/pages.ts";
import { brand } from "../content/site.ts";
import { JsonLd } from "../lib/json-ld.tsx";
import { pageMeta } from "../lib/meta.ts";
import { absoluteUrl } from "../lib/site-url.ts";
import { ArticleHeader, ArticleImage, AuthorCard, PostCard } from "../sections/pages/blog.tsx";
import { MessagePanel } from "../sections/pages/message-panel.tsx";
import { Prose } from "../sections/pages/prose.tsx";
import { ProductNextStep } from "../sections/products/product-next-step.tsx";
import type { Route } from "./+types/blog-post";

/** Runs at build time for every post (and for the blog's not-found page, served for unknown slugs). */
export function loader({ params }: Route.LoaderArgs) {
  const post = findPost(params.slug) ?? null;
  const others = postSummaries().filter((p) => p.slug !== post?.slug);
  return { post, others: post ? others : others.slice(0, 3) };
}

export const meta = ({ loaderData: data }: Route.MetaArgs) => {
  const post = data?.post;
  if (!post)
    return [
      { title: "Blog Post Not Found · Revwise" },
      {
        name: "description",
        content: "This blog post does not exist or has moved. The Revwise blog lists every post.",
      },
      { name: "robots", content: "noindex" },
    ];
  return pageMeta(
    { path: `/blog/${post.slug}`, title: `${post.title} · Revwise`, description: post.description },
    { type: "article", publishedTime: post.date },
  );
};

function MoreFromTheBlog({ posts, title }: { posts: PostSummary[]; title: string }) {
  if (posts.length === 0) return null;
  return (
    <section aria-labelledby="more-posts-title" className="border-t border-border bg-slate-50">
      <Container className="py-16 sm:py-20">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <h2 id="more-posts-title" className="text-3xl font-bold tracking-tight text-ink">
            {title}
          </h2>
          <a
            href={pages.blog.path}
            className="inline-flex min-h-9 items-center gap-1 rounded-lg font-semibold text-primary hover:text-indigo-900"
          >
            All posts
            <Icon name="arrow-right" className="size-4" />
          </a>
        </div>
        <ul role="list" className="mt-8 grid gap-8 md:grid-cols-3">
          {posts.map((post) => (
            <li key={post.slug}>
              <PostCard post={post} heading="h3" />
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}

function BlogPostNotFound({ recent = [] }: { recent?: PostSummary[] }) {
  return (
    <>
      <MessagePanel
        icon="message"
        eyebrow="Blog"
        title="Blog Post Not Found"
        text="Sorry, the blog post you're looking for hasn't been published yet or may have been moved."
      >
        <Button asChild size="lg" className="mt-8">
          <a href={pages.blog.path}>Back to the blog</a>
        </Button>
      </MessagePanel>
      <MoreFromTheBlog posts={recent} title="Recent posts" />
    </>
  );
}

export default function BlogPost() {
  const { post, others } = useLoaderData<typeof loader>();
  if (!post) return <BlogPostNotFound recent={others} />;
  const url = absoluteUrl(`/blog/${post.slug}`);
  return (
    <>
      <article>
        <div className="border-b border-border bg-gradient-to-b from-indigo-50/70 to-white">
          <Container className="pt-8 pb-12 sm:pt-10 sm:pb-16">
            <a
              href={pages.blog.path}
              className="inline-flex min-h-9 items-center gap-1.5 rounded-lg text-sm font-semibold text-primary hover:text-indigo-900"
            >
              <Icon name="chevron-left" className="size-4" />
              All posts
            </a>
            <div className="mt-6">
              <ArticleHeader post={post} />
              <ArticleImage post={post} />
            </div>
          </Container>
        </div>
        <Container className="py-12 sm:py-16">
          <div className="mx-auto max-w-3xl">
            <AuthorCard post={post} />
            <Prose html={post.html} className="mt-10 sm:text-lg sm:leading-8" />
          </div>
        </Container>
      </article>
      <MoreFromTheBlog posts={others} title="More from the blog" />
      <ProductNextStep name={brand.name} />
      <JsonLd
        data={{
          "@type": "BlogPosting",
          headline: post.title,
          description: post.description,
          datePublished: post.date,
          dateModified: post.date,
          articleSection: post.category,
          image: absoluteUrl(post.image),
          url,
          mainEntityOfPage: { "@type": "WebPage", "@id": url },
          author: {
            "@type": "Person",
            name: post.author.name,
            jobTitle: post.author.role,
            ...(post.author.linkedin ? { sameAs: [post.author.linkedin] } : {}),
          },
          publisher: {
            "@type": "Organization",
            name: brand.name,
            url: absoluteUrl("/"),
            logo: { "@type": "ImageObject", url: absoluteUrl("/favicon.svg") },
          },
        }}
      />
    </>
  );
}
