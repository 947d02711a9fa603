// The pages behind the newsletter's links, rendered by the server (they answer a token, so none
// can be prerendered). A GET never changes anything (mail scanners fetch links before people
// do): it shows one button, a form POST that works without JavaScript. The POST confirms or
// unsubscribes; a mail client's RFC 8058 one-click POST (`List-Unsubscribe=One-Click`) lands on
// the same route and gets a 200 without a redirect. A forged, malformed or foreign token is a 400
// page and changes nothing.
import crypto from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { escapeHtml } from "../mail/html.ts";
import { CONFIRM_PATH, UNSUBSCRIBE_PATH, type LinkPurpose } from "./links.ts";
import { confirm, unsubscribe, type Change } from "./subscribers.ts";

const STYLE = `body{margin:0;padding:24px;background:#f1f5f9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#0f172a}
main{max-width:560px;margin:40px auto;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:28px}
.brand{margin:0 0 20px;font-weight:700;font-size:18px;color:#4338ca}h1{font-size:22px;margin:0 0 12px}p{line-height:1.6}
button{font:inherit;font-weight:600;background:#4338ca;color:#fff;border:0;border-radius:8px;padding:12px 20px;cursor:pointer}
button:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}a{color:#4338ca}`;

/** Only this style and a form posting back here: no script, no other origin. */
const CSP = `default-src 'none'; style-src 'sha256-${crypto.createHash("sha256").update(STYLE).digest("base64")}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

type Page = { status: number; title: string; text: string; button?: string };

function send(reply: FastifyReply, request: FastifyRequest, shown: Page) {
  const form = shown.button
    ? `<form method="post" action="${escapeHtml(request.url)}"><button type="submit">${escapeHtml(shown.button)}</button></form>`
    : `<p><a href="/">Back to the Revwise website</a></p>`;
  return reply
    .code(shown.status)
    .type("text/html; charset=utf-8")
    .header("content-security-policy", CSP)
    .header("cache-control", "no-store")
    .header("x-robots-tag", "noindex")
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(shown.title)} · Revwise</title><style>${STYLE}</style></head>
<body><main><p class="brand">Revwise</p><h1>${escapeHtml(shown.title)}</h1>
<p>${escapeHtml(shown.text)}</p>
${form}</main></body></html>`);
}

/** A page: its status, its heading (and title), one paragraph, and its button if it asks. */
const page = (status: number, title: string, text: string, button?: string): Page => ({
  status,
  title,
  text,
  button,
});

const INVALID = page(
  400,
  "This link is not valid",
  "The link may have been cut short or changed on its way to you. Nothing was changed. Copy the whole link from the email, or write to us and we will sort it out.",
);

const EXPIRED = page(
  410,
  "This confirmation link has expired",
  "Confirmation links work for 7 days. Sign up again with the form at the foot of any page of our website and we will send you a new one.",
);

const ASK: Record<LinkPurpose, Page> = {
  confirm: page(
    200,
    "Confirm your newsletter subscription",
    "Press the button to receive the Revwise newsletter at this address.",
    "Confirm my subscription",
  ),
  unsubscribe: page(
    200,
    "Unsubscribe from the Revwise newsletter",
    "Press the button and we will not send the newsletter to this address again.",
    "Unsubscribe",
  ),
};

const UNSUBSCRIBED = page(
  200,
  "You are unsubscribed",
  "We will not send the Revwise newsletter to this address again. Changed your mind? Sign up again on our website.",
);

/** What a confirmation did, as the page says it. */
function confirmed(change: Change): Page {
  if (change?.status === "subscribed")
    return page(
      200,
      "Your subscription is confirmed",
      "Thank you: the Revwise newsletter will reach you at this address. Every issue has a link to unsubscribe in one click.",
    );
  if (change?.status === "unsubscribed")
    return page(
      409,
      "This address was unsubscribed",
      "You unsubscribed after this link was sent, so it no longer subscribes you. To receive the newsletter again, sign up on our website and confirm the new email.",
    );
  return page(
    404,
    "This sign-up is no longer on file",
    "Addresses not confirmed within 30 days are deleted. Sign up again on our website to receive the newsletter.",
  );
}

export default async function newsletterPages(app: FastifyInstance) {
  // The POST's body (a button's empty form, or RFC 8058's `List-Unsubscribe=One-Click`) is never
  // read: the token in the URL is the proof. Only the size limit applies.
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, _body, done) =>
    done(null, undefined),
  );

  type LinkRequest = FastifyRequest<{ Querystring: { token?: string } }>;
  const subscriberOf = (purpose: LinkPurpose, request: LinkRequest) =>
    app.newsletter.links.verify(purpose, request.query.token);

  for (const [purpose, path] of [
    ["confirm", CONFIRM_PATH],
    ["unsubscribe", UNSUBSCRIBE_PATH],
  ] as const) {
    app.get(path, async (request: LinkRequest, reply) => {
      const id = subscriberOf(purpose, request);
      return send(
        reply,
        request,
        id === undefined ? INVALID : id === "expired" ? EXPIRED : ASK[purpose],
      );
    });
  }

  app.post(CONFIRM_PATH, async (request: LinkRequest, reply) => {
    const id = subscriberOf("confirm", request);
    if (id === undefined) return send(reply, request, INVALID);
    if (id === "expired") return send(reply, request, EXPIRED);
    return send(reply, request, confirmed(await confirm(app.db, id)));
  });

  // Unsubscribing is idempotent, and an address already deleted gets nothing either: 200.
  app.post(UNSUBSCRIBE_PATH, async (request: LinkRequest, reply) => {
    const id = subscriberOf("unsubscribe", request);
    if (id === undefined || id === "expired") return send(reply, request, INVALID);
    await unsubscribe(app.db, id);
    return send(reply, request, UNSUBSCRIBED);
  });
}
