// Blog posts are files: content/blog/<slug>.md with validated frontmatter. An unknown author,
// category or image fails the build. Used by build-time loaders only (never shipped to browsers).
import { z } from "zod";
import { authors } from "./authors.ts";
import { renderMarkdown } from "./markdown.ts";
import type { Person } from "./people.ts";

const categories = ["Technology", "Company", "Sales"] as const;

const sources = import.meta.glob<string>("./blog/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
});
const slugOf = (file: string) => file.slice("./blog/".length, -".md".length);

/** Every post's slug, from the file names: the prerender list, the sitemap and the tests use these. */
export const blogSlugs: string[] = Object.keys(sources).map(slugOf).sort();

const images = import.meta.glob<string>("../assets/blog/*.svg", {
  query: "?url",
  import: "default",
  eager: true,
});

const Frontmatter = z.object({
  title: z.string().min(5),
  description: z.string().min(20),
  date: z.iso.date(),
  category: z.enum(categories),
  author: z.string().refine((id) => id in authors, { message: "unknown author" }),
  image: z
    .string()
    .refine((name) => `../assets/blog/${name}` in images, { message: "unknown image" }),
  imageAlt: z.string().min(5),
  smallImage: z.enum(["true", "false"]).default("false"),
});

export type PostSummary = {
  slug: string;
  title: string;
  description: string;
  date: string;
  category: (typeof categories)[number];
  image: string;
  imageAlt: string;
  smallImage: boolean;
  author: Person;
};
export type Post = PostSummary & { html: string; readingMinutes: number };

function load(): Post[] {
  return Object.entries(sources)
    .map(([file, source]) => {
      const slug = slugOf(file);
      const {
        data: fm,
        html,
        words,
      } = renderMarkdown(`content/blog/${slug}.md`, source, Frontmatter);
      return {
        slug,
        title: fm.title,
        description: fm.description,
        date: fm.date,
        category: fm.category,
        image: images[`../assets/blog/${fm.image}`]!,
        imageAlt: fm.imageAlt,
        smallImage: fm.smallImage === "true",
        author: authors[fm.author]!,
        html,
        readingMinutes: Math.max(1, Math.round(words / 230)),
      };
    })
    .sort((a, b) => b.date.localeCompare(a.date));
}

let cache: Post[] | undefined;
export function allPosts(): Post[] {
  cache ??= load();
  return cache;
}

export function postSummaries(): PostSummary[] {
  return allPosts().map(({ html: _html, readingMinutes: _m, ...summary }) => summary);
}

export function findPost(slug: string): Post | undefined {
  return allPosts().find((p) => p.slug === slug);
}
