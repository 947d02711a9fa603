// An issue's Markdown as the HTML of its email and of its archive page. Members write it, but a
// member's stolen session must not put a script on the site's origin (the archive) or in every
// subscriber's mailbox: raw HTML in the Markdown is shown as text, and a link or an image keeps
// its address only when it is http(s) (a link may also be mailto:); any other becomes plain text.
import { Marked, type Tokens } from "marked";
import { escapeHtml } from "../mail/html.ts";

const LINK = /^(https?:|mailto:)/i;
const IMAGE = /^https?:/i;

const marked = new Marked({
  gfm: true,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(token.text);
    },
    link(token: Tokens.Link) {
      const text = this.parser.parseInline(token.tokens);
      if (!LINK.test(token.href.trim())) return text;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
      return `<a href="${escapeHtml(token.href.trim())}"${title} style="color:#4338ca">${text}</a>`;
    },
    image(token: Tokens.Image) {
      if (!IMAGE.test(token.href.trim())) return escapeHtml(token.text);
      return `<img src="${escapeHtml(token.href.trim())}" alt="${escapeHtml(token.text)}" style="max-width:100%;height:auto">`;
    },
  },
});

/** The body's HTML (headings, paragraphs, lists, links, images, code, tables). */
export function issueHtml(markdown: string): string {
  return marked.parse(markdown, { async: false });
}
