// Legal pages are markdown files (content/legal/<path>.md), rendered at build time.
import { z } from "zod";
import { renderMarkdown } from "./markdown.ts";

const sources = import.meta.glob<string>("./legal/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
});

const Frontmatter = z.object({
  title: z.string().min(3),
  updated: z.iso.date(),
  summary: z.string().min(20),
});

export type LegalDoc = z.infer<typeof Frontmatter> & { html: string };

export function legalDoc(name: string): LegalDoc {
  const source = sources[`./legal/${name}.md`];
  if (!source) throw new Error(`content/legal/${name}.md is missing`);
  const { data, html } = renderMarkdown(`content/legal/${name}.md`, source, Frontmatter);
  return { ...data, html };
}
