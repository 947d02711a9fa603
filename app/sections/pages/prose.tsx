import { cn } from "../../lib/cn.ts";

// A scrollable region must be reachable by keyboard and named (WCAG 2.1.1, 4.1.2): each table of
// rendered markdown goes in a focusable box that scrolls sideways on narrow screens.
const TABLE_BOX =
  "my-6 overflow-x-auto p-px [&>table]:my-0 [&>table]:min-w-[36rem] focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-ring";

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

function headingText(html: string): string | undefined {
  const headings = [...html.matchAll(/<h[2-4][^>]*>([\s\S]*?)<\/h[2-4]>/g)];
  const last = headings.at(-1)?.[1];
  return last
    ?.replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .trim();
}

const plainText = (html: string) => html.replace(/<[^>]+>/g, "").trim();

/**
 * Gives each body cell its column's heading (data-label), so that a phone can show every row as
 * a card of labelled lines (app.css, .stacked-table) instead of a table wider than the screen.
 */
function labelCells(table: string): string {
  const headings = [...table.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => plainText(m[1]!));
  const body = table.replace(/<tbody>([\s\S]*)<\/tbody>/, (rows) =>
    rows.replace(/<tr>([\s\S]*?)<\/tr>/g, (row) => {
      let column = 0;
      return row.replace(/<td(\s[^>]*)?>/g, (cell, attributes: string | undefined) => {
        const label = headings[column++];
        return label ? `<td${attributes ?? ""} data-label="${escapeAttribute(label)}">` : cell;
      });
    }),
  );
  return body.replace("<table>", '<table class="stacked-table">');
}

/**
 * Wraps every <table> in a keyboard-scrollable region named after the heading above it; on a
 * phone its rows are stacked instead.
 */
function wrapTables(html: string): string {
  let n = 0;
  return html.replace(/<table>([\s\S]*?)<\/table>/g, (table, _inner, offset: number) => {
    n += 1;
    const heading = headingText(html.slice(0, offset));
    const label = heading ? `${heading} (table)` : `Table ${n}`;
    return `<div class="${TABLE_BOX}" role="region" tabindex="0" aria-label="${escapeAttribute(label)}">${labelCells(table)}</div>`;
  });
}

/**
 * Long-form text rendered from markdown at build time (blog articles, legal pages,
 * documentation), in the site's `.prose` style.
 */
export function Prose({ html, className }: { html: string; className?: string }) {
  return (
    <div
      className={cn(
        "prose [&_:is(h2,h3)]:scroll-mt-24 [&_li>p]:my-1 [&_pre]:my-6 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-muted [&_pre]:p-4",
        className,
      )}
      dangerouslySetInnerHTML={{ __html: wrapTables(html) }}
    />
  );
}
