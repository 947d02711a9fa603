import { Badge } from "../../components/ui/badge.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Icon } from "../../components/ui/icon.tsx";
import type { Post, PostSummary } from "../../content/blog-posts.ts";
import { cn } from "../../lib/cn.ts";
import { formatDate } from "../../lib/dates.ts";
import { LinkedInLink, Portrait } from "./people.tsx";

const CATEGORY_VARIANT = {
  Technology: "default",
  Company: "accent",
  Sales: "warning",
} as const satisfies Record<PostSummary["category"], "default" | "accent" | "warning">;

function CategoryBadge({ category }: { category: PostSummary["category"] }) {
  return <Badge variant={CATEGORY_VARIANT[category]}>{category}</Badge>;
}

function PostDate({ date, className }: { date: string; className?: string }) {
  return (
    <time dateTime={date} className={cn("text-sm text-slate-600", className)}>
      {formatDate(date)}
    </time>
  );
}

/** The blog's filter row: one filter, "All", which is the current one. */
export function BlogFilters({ count }: { count: number }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-4 border-b border-border pb-6">
      <nav aria-label="Filter posts by category">
        <ul className="flex flex-wrap gap-2">
          <li>
            <a
              href="/blog"
              aria-current="page"
              className="inline-flex h-9 items-center rounded-full bg-primary px-4 text-sm font-semibold text-primary-foreground shadow-sm hover:bg-indigo-800"
            >
              All
            </a>
          </li>
        </ul>
      </nav>
      <p className="text-sm text-slate-600">
        {count} {count === 1 ? "post" : "posts"}
      </p>
    </div>
  );
}

/**
 * A post in a list: the whole card is clickable through its title link (the link's name is the
 * title, so it says where it goes).
 */
export function PostCard({
  post,
  heading: Heading = "h2",
  featured = false,
  lazy = true,
}: {
  post: PostSummary;
  heading?: "h2" | "h3";
  featured?: boolean;
  lazy?: boolean;
}) {
  return (
    <article
      className={cn(
        "group relative flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-card shadow-sm transition hover:-translate-y-0.5 hover:shadow-lg",
        featured && "xl:grid xl:grid-cols-[1.25fr_1fr]",
      )}
    >
      <div className="overflow-hidden border-b border-border bg-slate-50 xl:border-b-0">
        <img
          src={post.image}
          alt=""
          width={1200}
          height={630}
          {...(lazy
            ? { loading: "lazy" as const, decoding: "async" as const }
            : { fetchPriority: "high" as const })}
          className={cn(
            "aspect-[40/21] w-full object-cover transition-transform duration-300 group-hover:scale-[1.02]",
            featured && "xl:h-full",
          )}
        />
      </div>
      <div
        className={cn(
          "flex flex-1 flex-col p-6",
          featured && "sm:p-8 xl:justify-center xl:border-l xl:border-border xl:p-10",
        )}
      >
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <CategoryBadge category={post.category} />
          <PostDate date={post.date} />
        </div>
        <Heading
          className={cn(
            "mt-4 font-bold tracking-tight text-ink",
            featured ? "text-2xl sm:text-3xl" : "text-xl",
          )}
        >
          <a
            href={`/blog/${post.slug}`}
            className="rounded-sm after:absolute after:inset-0 after:content-[''] hover:text-primary"
          >
            {post.title}
          </a>
        </Heading>
        <p className={cn("mt-3 leading-7 text-slate-700", featured && "sm:text-lg sm:leading-8")}>
          {post.description}
        </p>
        <div className="mt-auto flex items-center justify-between gap-4 pt-6">
          <p className="flex items-center gap-3 text-sm">
            <Portrait person={post.author} size={36} className="size-9 ring-2" />
            <span>
              <span className="block font-semibold text-ink">{post.author.name}</span>
              <span className="block text-slate-600">{post.author.role}</span>
            </span>
          </p>
          <Icon
            name="arrow-right"
            className="text-primary transition-transform group-hover:translate-x-1"
          />
        </div>
      </div>
    </article>
  );
}

/** The opening of an article: category, date, reading time, title and description. */
export function ArticleHeader({ post }: { post: Post }) {
  return (
    <header className="mx-auto max-w-3xl text-center">
      <div className="flex flex-wrap items-center justify-center gap-x-3 gap-y-2">
        <CategoryBadge category={post.category} />
        <PostDate date={post.date} />
        <span aria-hidden="true" className="text-slate-400">
          ·
        </span>
        <span className="text-sm text-slate-600">{post.readingMinutes} min read</span>
      </div>
      <h1 className="mt-5 text-4xl font-bold tracking-tight text-balance text-ink sm:text-5xl">
        {post.title}
      </h1>
      <p className="mt-5 text-lg leading-8 text-pretty text-slate-700 sm:text-xl">
        {post.description}
      </p>
    </header>
  );
}

export function ArticleImage({ post }: { post: Post }) {
  return (
    <figure className={cn("mx-auto mt-10", post.smallImage ? "max-w-3xl" : "max-w-5xl")}>
      <img
        src={post.image}
        alt={post.imageAlt}
        width={1200}
        height={630}
        fetchPriority="high"
        className="aspect-[40/21] w-full rounded-2xl border border-border object-cover shadow-sm"
      />
    </figure>
  );
}

/** Who wrote the article: portrait, name, role, bio and LinkedIn. */
export function AuthorCard({ post }: { post: Post }) {
  const { author } = post;
  return (
    <Card className="flex flex-col gap-5 bg-slate-50 sm:flex-row sm:items-start">
      <Portrait person={author} size={72} className="size-18" />
      <div>
        <p className="text-xs font-semibold tracking-wide text-primary uppercase">Written by</p>
        <p className="mt-1 text-lg font-bold text-ink">{author.name}</p>
        <p className="text-sm font-medium text-slate-600">{author.role}</p>
        <p className="mt-3 leading-7 text-slate-700">{author.bio}</p>
        <LinkedInLink person={author} className="mt-2" />
      </div>
    </Card>
  );
}
