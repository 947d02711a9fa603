// The pages behind the newsletter's links, rendered by the server (they answer a token, so none
// can be prerendered). A GET never changes anything (mail scanners fetch links before people
// do): it shows one button, a form POST that works without JavaScript. The POST confirms or
// unsubscribes; a mail client's RFC 8058 one-click POST (`List-Unsubscribe=One-Click`) lands on
// the same route and gets a 200 without a redirect. A forged, malformed or foreign token is a 400
// page and changes nothing.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { escapeHtml } from "../mail/html.ts";
import { isUuid } from "../platform/uuid.ts";
import { PAGE_CSP, pageHtml } from "./page-shell.ts";
import { CONFIRM_PATH, UNSUBSCRIBE_PATH, type LinkPurpose } from "./links.ts";
import { confirm, unsubscribe, type Change } from "./subscribers.ts";

type Page = { status: number; title: string; text: string; button?: string };

function send(reply: FastifyReply, request: FastifyRequest, shown: Page) {
  const form = shown.button
    ? `<form method="post" action="${escapeHtml(request.url)}"><button type="submit">${escapeHtml(shown.button)}</button></form>`
    : `<p><a href="/">Back to the Revwise website</a></p>`;
  return reply
    .code(shown.status)
    .type("text/html; charset=utf-8")
    .header("content-security-policy", PAGE_CSP)
    .header("cache-control", "no-store")
    .header("x-robots-tag", "noindex")
    .send(
      pageHtml({
        title: shown.title,
        indexed: false,
        body: `<main><p class="brand">Revwise</p><h1>${escapeHtml(shown.title)}</h1>
<p>${escapeHtml(shown.text)}</p>
${form}</main>`,
      }),
    );
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

  type LinkRequest = FastifyRequest<{ Querystring: { token?: string; issue?: string } }>;
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
    return send(reply, request, confirmed(await confirm(app.db, id, app.newsletter.links)));
  });

  // Unsubscribing is idempotent, and an address already deleted gets nothing either: 200.
  app.post(UNSUBSCRIBE_PATH, async (request: LinkRequest, reply) => {
    const id = subscriberOf("unsubscribe", request);
    if (id === undefined || id === "expired") return send(reply, request, INVALID);
    // The issue whose link it was (unsigned: it only decides which issue's figures count it).
    const issue = isUuid(request.query.issue ?? "") ? request.query.issue : undefined;
    await unsubscribe(app.db, id, "unsubscribed", issue);
    return send(reply, request, UNSUBSCRIBED);
  });
}
