// Limits on the emails and texts the auth service sends: the site's budgets (per client IP, shared
// with every email to an address a visitor types, the account emails' own and the texts' own for
// the whole site, and a text's per person: email-budget.ts), and at most one email per purpose
// and address a minute. The second is
// applied silently (nothing is sent, the answer is the same), so it reveals no account.
import type { FastifyRequest } from "fastify";
import type { Queryable } from "../../db/database.ts";
import { ErrorCode, tooMany } from "../errors.ts";

export const EMAIL_FREQUENCY_SECONDS = 60;

/**
 * Spends the budgets for a request that may email an address or text a number, before anything is
 * looked up: whether it has an account changes nothing here, so neither does the answer. Texts
 * spend the client's budget the emails spend, the site's texts' budget, and the budget of each
 * person they concern (the number, and the signed-in user who asked, `userId`); their refusal
 * names SMS, as GoTrue's does (phone.go). `everyTime`: a message whose repeats its caller limits
 * itself (an MFA challenge), charged every time rather than once a minute.
 */
export async function spendEmailBudget(
  request: FastifyRequest,
  purpose: string,
  to: { email: string } | { phone: string },
  opts: { userId?: string; everyTime?: boolean } = {},
): Promise<void> {
  const texted = "phone" in to;
  const claim = await request.server.emailBudget.claim(request, {
    family: texted ? "text" : "account",
    purpose,
    to: texted ? to.phone : to.email,
    repeatSeconds: opts.everyTime ? 0 : EMAIL_FREQUENCY_SECONDS,
    ...(texted && {
      people: [`number:${to.phone}`, ...(opts.userId ? [`user:${opts.userId}`] : [])],
    }),
  });
  if (!claim.ok) {
    const [code, message] = texted
      ? [ErrorCode.over_sms_send_rate_limit, "SMS rate limit exceeded"]
      : [ErrorCode.over_email_send_rate_limit, "email rate limit exceeded"];
    throw tooMany(code, message, claim.retryAfterSeconds);
  }
}

export function sentRecently(at: Date | null | undefined): boolean {
  return (
    at !== null &&
    at !== undefined &&
    Date.now() - new Date(at).getTime() < EMAIL_FREQUENCY_SECONDS * 1000
  );
}

/**
 * Whether a change to `to` repeats the one pending, asked within the minute: it then changes
 * nothing, so the code or link already sent stays the one that works and no other goes.
 */
export function repeatsPendingChange(
  pending: string | null,
  sentAt: Date | null,
  to: string,
): boolean {
  return pending === to && sentRecently(sentAt);
}

export async function emailedRecently(q: Queryable, kind: string, to: string): Promise<boolean> {
  const [row] = await q.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM mail.outbox WHERE kind = $1 AND to_address = $2 AND created_at > now() - make_interval(secs => $3)",
    [kind, to, EMAIL_FREQUENCY_SECONDS],
  );
  return row!.n > 0;
}
