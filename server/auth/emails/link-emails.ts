// Sends an email that carries a verification link and code: a PKCE flow state when the client
// asked for one, the one-time token, and the email written in the caller's transaction.
import type { Queryable } from "../../db/database.ts";
import type { Email } from "../../mail/outbox.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { confirmationEmail, emailChangeEmail, emailLinkUrl } from "./account-emails.ts";
import { createFlowState, type Pkce } from "../models/flow-states.ts";
import { createOneTimeToken, type TokenType } from "../models/one-time-tokens.ts";
import { requestEmailChange, stampEmailSent, type UserRow } from "../models/users.ts";

type LinkEmail = {
  userId: string;
  to: string;
  tokenType: TokenType;
  /** The `type` of the /verify link, and the flow state's authentication method. */
  verifyType: "signup" | "invite" | "recovery" | "magiclink" | "email_change";
  pkce: Pkce | undefined;
  siteUrl: string;
  redirectTo: string;
  compose: (link: { to: string; url: string; code: string }) => Email;
};

const FLOW_METHODS: Record<LinkEmail["verifyType"], string> = {
  signup: "email/signup",
  invite: "invite",
  recovery: "recovery",
  magiclink: "magiclink",
  email_change: "email_change",
};

export async function sendLinkEmail(q: Queryable, mailer: Mailer, e: LinkEmail): Promise<void> {
  const flowStateId = e.pkce
    ? await createFlowState(q, e.userId, e.pkce, FLOW_METHODS[e.verifyType])
    : undefined;
  const { code, linkToken } = await createOneTimeToken(q, {
    userId: e.userId,
    type: e.tokenType,
    email: e.to,
    flowStateId,
  });
  const url = emailLinkUrl(e.siteUrl, linkToken, e.verifyType, e.redirectTo);
  await mailer.enqueue(q, e.compose({ to: e.to, url, code }));
}

/**
 * The sign-up confirmation email (sign-up, /resend of type signup, and a sign-in link asked for
 * by an address without a confirmed account, in that email's words); stamps confirmation_sent_at.
 */
export async function sendConfirmationEmail(
  q: Queryable,
  mailer: Mailer,
  user: { id: string; email: string },
  link: Pick<LinkEmail, "pkce" | "siteUrl" | "redirectTo"> & { compose?: LinkEmail["compose"] },
): Promise<UserRow> {
  await sendLinkEmail(q, mailer, {
    ...link,
    compose: link.compose ?? confirmationEmail,
    userId: user.id,
    to: user.email,
    tokenType: "confirmation",
    verifyType: "signup",
  });
  return stampEmailSent(q, user.id, "confirmation");
}

/**
 * Asks for a change of address (PUT /user, and /resend of type email_change): records it, so a
 * confirmation of an earlier request no longer counts, and sends a link to the new address and
 * one to the current address; both must be used (a user without an address yet, phone or
 * anonymous, confirms the new one only).
 */
export async function sendEmailChangeLinks(
  q: Queryable,
  mailer: Mailer,
  user: { id: string; email: string | null },
  newEmail: string,
  link: Pick<LinkEmail, "pkce" | "siteUrl" | "redirectTo">,
): Promise<UserRow> {
  const changing = await requestEmailChange(q, user.id, newEmail);
  const recipients = [
    ["email_change_new", newEmail, "new"],
    ["email_change_current", user.email, "current"],
  ] as const;
  for (const [tokenType, to, role] of recipients) {
    if (!to) continue;
    await sendLinkEmail(q, mailer, {
      ...link,
      userId: user.id,
      to,
      tokenType,
      verifyType: "email_change",
      compose: (sent) => emailChangeEmail(sent, role, newEmail),
    });
  }
  return changing;
}
