// The newsletter's server-rendered pages (the links' pages, the archive): one document shell with
// one style, and the policy that allows that style, https images and a form posting back here,
// never a script or another origin.
import crypto from "node:crypto";
import { escapeHtml } from "../mail/html.ts";

const STYLE = `body{margin:0;padding:24px;background:#f1f5f9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#0f172a}
main{max-width:560px;margin:40px auto;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:28px}
main.wide{max-width:720px}main img{max-width:100%;height:auto}
article h2{font-size:19px;margin:28px 0 8px}article h3{font-size:16px;margin:24px 0 8px}
.brand{margin:0 0 20px;font-weight:700;font-size:18px;color:#4338ca}h1{font-size:22px;margin:0 0 12px}p,li{line-height:1.6}
.muted{color:#475569;font-size:14px}ol.issues{padding:0;list-style:none}ol.issues li{padding:12px 0;border-top:1px solid #e2e8f0}
button{font:inherit;font-weight:600;background:#4338ca;color:#fff;border:0;border-radius:8px;padding:12px 20px;cursor:pointer}
button:focus-visible,a:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}a{color:#4338ca}`;

export const PAGE_CSP = `default-src 'none'; style-src 'sha256-${crypto.createHash("sha256").update(STYLE).digest("base64")}'; img-src https:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

/** A whole document: its title (with the brand), whether search engines may index it, its body. */
export function pageHtml(page: { title: string; indexed: boolean; body: string }): string {
  const robots = page.indexed ? "" : `<meta name="robots" content="noindex">`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${robots}<title>${escapeHtml(page.title)} · Revwise</title><style>${STYLE}</style></head>
<body>${page.body}</body></html>`;
}
