// Long-form documents are markdown files: the legal pages (content/legal/*.md) and the
// documentation (content/docs/*.md), rendered at build time by the routes' loaders (never shipped
// to browsers). Their headings get ids, so a page can list its sections ("On this page"). They
// name the site's contact details by {{placeholders}}, filled from its settings (content/site.ts).
import { z } from "zod";
import { renderMarkdown } from "./markdown.ts";
import { contact } from "./site.ts";

const sources = import.meta.glob<string>(["./legal/*.md", "./docs/*.md"], {
  query: "?raw",
  import: "default",
  eager: true,
});

const Frontmatter = z.object({
  title: z.string().min(3),
  updated: z.iso.date(),
  summary: z.string().min(20),
});

/** One entry of an "On this page" list: a level-2 heading and its id. */
export type TocEntry = { id: string; title: string };

export type Document = z.infer<typeof Frontmatter> & { html: string; toc: TocEntry[] };

/** A document by its path under content/, without ".md" (e.g. "legal/privacy-policy"). */
export function loadDocument(name: `${"legal" | "docs"}/${string}`): Document {
  const file = `content/${name}.md`;
  const source = sources[`./${name}.md`];
  if (!source) throw new Error(`${file} is missing`);
  const { data, html } = renderMarkdown(file, withSettings(file, source), Frontmatter);
  return { ...data, ...withHeadingIds(html) };
}

/** What a document may name by placeholder: the contact details the site is built with. */
const SETTINGS: Record<string, string> = {
  "contact.email": contact.email,
  "contact.phone": contact.phone,
};

/** The source with its {{placeholders}} filled in; an unknown one fails the build, naming the file. */
function withSettings(file: string, source: string): string {
  return source.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_match, key: string) => {
    const value = SETTINGS[key];
    if (value === undefined) throw new Error(`${file}: unknown placeholder {{${key}}}`);
    return value;
  });
}

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
};

/** The text of a fragment of rendered markdown (tags dropped, the entities marked emits decoded). */
function plainText(html: string): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity)
    .trim();
}

function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "section"
  );
}

/**
 * Gives the h2 and h3 headings of rendered markdown (marked emits them without ids) unique,
 * readable ids, and returns the list of the h2s.
 */
function withHeadingIds(html: string): { html: string; toc: TocEntry[] } {
  const used = new Set<string>();
  const toc: TocEntry[] = [];
  const out = html.replace(
    /<h([23])>([\s\S]*?)<\/h\1>/g,
    (_match, level: string, inner: string) => {
      const title = plainText(inner);
      const base = slugify(title);
      let id = base;
      for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
      used.add(id);
      if (level === "2") toc.push({ id, title });
      return `<h${level} id="${id}">${inner}</h${level}>`;
    },
  );
  return { html: out, toc };
}
