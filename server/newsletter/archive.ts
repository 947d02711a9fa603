// The archive of sent issues on the site: /newsletter lists them, /newsletter/<number> shows one.
// Issues are sent while the site runs, long after its pages were prerendered, so these pages are
// rendered by the server from the database, and cached as any page whose content changes a few
// times a month: a minute fresh for browsers and shared caches, then served stale for up to ten
// while revalidated, with an ETag of the page itself (a 304 when it has not changed). An issue is
// in the archive from the moment its copies start going out.
import crypto from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { escapeHtml } from "../mail/html.ts";
import { ARCHIVE_PATH } from "./links.ts";
import { issueHtml } from "./markdown.ts";
import { PAGE_CSP, pageHtml } from "./page-shell.ts";

const CACHE = "public, max-age=60, stale-while-revalidate=600";
const SHOWN = "status IN ('sending', 'sent')";

const day = (at: Date) =>
  at.toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });

const time = (at: Date) =>
  `<time datetime="${at.toISOString().slice(0, 10)}">${escapeHtml(day(at))}</time>`;

const SIGN_UP = `<p class="muted">To receive the next issues, sign up with the form at the foot of any page of <a href="/">our website</a>. Every issue has a link to unsubscribe in one click.</p>`;

function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  title: string,
  body: string,
) {
  const html = pageHtml({ title, indexed: status === 200, body });
  const etag = `"${crypto.createHash("sha256").update(html).digest("base64url").slice(0, 27)}"`;
  reply
    .code(status)
    .type("text/html; charset=utf-8")
    .header("content-security-policy", PAGE_CSP)
    .header("cache-control", status === 200 ? CACHE : "no-store")
    .header("etag", etag);
  if (status === 200 && request.headers["if-none-match"] === etag) return reply.code(304).send();
  return reply.send(html);
}

export default async function newsletterArchive(app: FastifyInstance) {
  app.get(ARCHIVE_PATH, async (request, reply) => {
    const issues = await app.db.query<{ number: number; subject: string; started_at: Date }>(
      `SELECT /* whole table: the sent issues, a few a month */ number, subject, started_at
       FROM public.newsletter_issues
       WHERE ${SHOWN} ORDER BY number DESC LIMIT 1000`,
    );
    const list = issues.length
      ? `<ol class="issues">${issues
          .map(
            (i) =>
              `<li><a href="${ARCHIVE_PATH}/${i.number}">${escapeHtml(i.subject)}</a><br><span class="muted">Issue ${i.number} · ${time(i.started_at)}</span></li>`,
          )
          .join("")}</ol>`
      : `<p>No issue has been sent yet.</p>`;
    return answer(
      request,
      reply,
      200,
      "The Revwise newsletter",
      `<main class="wide"><p class="brand"><a href="/">Revwise</a></p><h1>The Revwise newsletter</h1>
<p>Every issue we have sent, newest first.</p>
${list}
${SIGN_UP}</main>`,
    );
  });

  app.get<{ Params: { number: string } }>(`${ARCHIVE_PATH}/:number`, async (request, reply) => {
    const number = /^[1-9][0-9]{0,8}$/.test(request.params.number)
      ? Number(request.params.number)
      : undefined;
    const [issue] =
      number === undefined
        ? []
        : await app.db.query<{ subject: string; body: string; started_at: Date }>(
            `SELECT subject, body, started_at FROM public.newsletter_issues
             WHERE number = $1 AND ${SHOWN}`,
            [number],
          );
    if (!issue)
      return answer(
        request,
        reply,
        404,
        "No such issue",
        `<main><p class="brand"><a href="/">Revwise</a></p><h1>No such issue</h1>
<p>There is no issue of the newsletter at this address. <a href="${ARCHIVE_PATH}">See every issue</a>.</p></main>`,
      );
    return answer(
      request,
      reply,
      200,
      issue.subject,
      `<main class="wide"><p class="brand"><a href="/">Revwise</a></p>
<p class="muted"><a href="${ARCHIVE_PATH}">The Revwise newsletter</a> · Issue ${number} · ${time(issue.started_at)}</p>
<article><h1>${escapeHtml(issue.subject)}</h1>
${issueHtml(issue.body)}</article>
${SIGN_UP}</main>`,
    );
  });
}
