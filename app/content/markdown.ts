// Markdown documents with validated frontmatter, rendered to HTML at build time.
import { marked } from "marked";
import { z } from "zod";
import { parseFrontmatter } from "./frontmatter.ts";

type MarkdownDoc<T> = { data: T; html: string; words: number };

export function renderMarkdown<T>(
  name: string,
  source: string,
  schema: z.ZodType<T>,
): MarkdownDoc<T> {
  const { data, body } = parseFrontmatter(source);
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new Error(`${name}: ${z.prettifyError(parsed.error)}`);
  return {
    data: parsed.data,
    html: marked.parse(body, { async: false }),
    words: body.split(/\s+/).filter(Boolean).length,
  };
}
