// The dev mailbox (GET /_dev/mailbox): every email the server queued and every text message it
// kept (codes sent to phones when no Send SMS hook is configured), newest first, so a developer
// can click a confirmation link or read a code without an SMTP server or an SMS provider. Never
// registered in production unless DEV_MAILBOX=true, and only ever shown to this machine.
import type { FastifyInstance, FastifyReply } from "fastify";
import { methodNotAllowed } from "../http/root-errors.ts";
import { isLoopbackAddress, isLoopbackHost } from "../platform/addresses.ts";
import { isUuid } from "../platform/uuid.ts";
import { escapeHtml } from "./html.ts";
import type { OutboxRow } from "./outbox.ts";
import { recentTextMessages } from "./text-messages.ts";

const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function page(reply: FastifyReply, title: string, body: string) {
  return reply
    .type("text/html; charset=utf-8")
    .header("content-security-policy", CSP)
    .header("cache-control", "no-store")
    .header("x-robots-tag", "noindex")
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:24px;color:#0f172a;background:#f8fafc}main{max-width:900px;margin:0 auto}
table{width:100%;border-collapse:collapse;background:#fff}td,th{padding:8px 10px;border-bottom:1px solid #e2e8f0;text-align:left;font-size:14px}
a{color:#4338ca}pre{white-space:pre-wrap;background:#fff;border:1px solid #e2e8f0;padding:16px;border-radius:8px;font-size:14px}.muted{color:#475569}</style></head>
<body><main>${body}</main></body></html>`);
}

/** Plain text with its URLs turned into links (everything else escaped). */
function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"]+)/g)
    .map((part, i) =>
      i % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
    )
    .join("");
}

export default async function mailboxRoutes(app: FastifyInstance) {
  const siteHost = new URL(app.config.siteUrl).hostname;
  // Its emails hold links that sign in as their addressee: only this machine may read them, by
  // the client's address (behind a trusted proxy, the one the proxy forwards), whatever turned
  // the mailbox on; and only under this machine's names or the site's own, so a page elsewhere
  // whose name was made to resolve here (DNS rebinding) reads nothing.
  app.addHook("onRequest", async (request, reply) => {
    const host = request.hostname;
    if (!isLoopbackAddress(request.ip) || !(isLoopbackHost(host) || host === siteHost))
      return reply.callNotFound();
  });
  // Every other method is routed here too, so a caller the hook hides it from gets the same 404
  // for every method (a 405 would tell there is something to hide).
  for (const url of ["/_dev/mailbox", "/_dev/mailbox/:id"])
    app.route({
      method: app.supportedMethods.filter((m) => m !== "GET" && m !== "HEAD"),
      url,
      handler: (request, reply) => methodNotAllowed(request, reply, ["GET", "HEAD"]),
    });
  app.get("/_dev/mailbox", async (_request, reply) => {
    const rows = await app.db.query<OutboxRow>(
      "SELECT * FROM mail.outbox ORDER BY created_at DESC LIMIT 200",
    );
    const list = rows
      .map(
        (m) =>
          `<tr><td><a href="/_dev/mailbox/${m.id}">${escapeHtml(m.subject)}</a></td><td>${escapeHtml(m.to_address)}</td>` +
          `<td class="muted">${escapeHtml(new Date(m.created_at).toISOString())}</td><td>${m.sent_at ? "delivered" : m.failed_at ? "failed" : "queued"}</td></tr>`,
      )
      .join("");
    const texts = (await recentTextMessages(app.db))
      .map(
        (t) =>
          `<tr><td>${escapeHtml(t.body)}</td><td>+${escapeHtml(t.to_phone)}</td><td>${escapeHtml(t.channel)}</td>` +
          `<td class="muted">${escapeHtml(new Date(t.created_at).toISOString())}</td></tr>`,
      )
      .join("");
    return page(
      reply,
      "Dev mailbox",
      `<h1>Dev mailbox</h1><p class="muted">Every email the server queued and every text message it kept (development only).</p>
<table><thead><tr><th>Subject</th><th>To</th><th>Queued</th><th>Status</th></tr></thead><tbody>${list || '<tr><td colspan="4">No emails yet.</td></tr>'}</tbody></table>
<h2>Text messages</h2>
<table><thead><tr><th>Message</th><th>To</th><th>Channel</th><th>Kept</th></tr></thead><tbody>${texts || '<tr><td colspan="4">No text messages yet.</td></tr>'}</tbody></table>`,
    );
  });

  app.get<{ Params: { id: string } }>("/_dev/mailbox/:id", async (request, reply) => {
    const { id } = request.params;
    const [m] = isUuid(id)
      ? await app.db.query<OutboxRow>("SELECT * FROM mail.outbox WHERE id = $1", [id])
      : [];
    if (!m) return reply.code(404).type("text/plain; charset=utf-8").send("No such email");
    return page(
      reply,
      m.subject,
      `<p><a href="/_dev/mailbox">← All emails</a></p><h1>${escapeHtml(m.subject)}</h1>
<p class="muted">To ${escapeHtml(m.to_address)}${m.reply_to ? ` · Reply-To ${escapeHtml(m.reply_to)}` : ""} · ${escapeHtml(new Date(m.created_at).toISOString())}</p>
<pre>${linkify(m.text_body)}</pre>`,
    );
  });
}
