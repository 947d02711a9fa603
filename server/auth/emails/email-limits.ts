// Limits on the emails the auth service sends: the site's email budgets (per client IP, shared
// with every email to an address a visitor types, and the account emails' own for the whole
// site: email-budget.ts), and at most one email per purpose and address a minute. The second is
// applied silently (nothing is sent, the answer is the same), so it reveals no account.
import type { FastifyRequest } from "fastify";
import type { Queryable } from "../../db/database.ts";
import { ErrorCode, tooMany } from "../errors.ts";

export const EMAIL_FREQUENCY_SECONDS = 60;

/**
 * Spends the budgets for a request that may email `to`, before anything is looked up: whether the
 * address has an account changes nothing here, so neither does the answer.
 */
export async function spendEmailBudget(
  request: FastifyRequest,
  purpose: string,
  to: string,
): Promise<void> {
  const claim = await request.server.emailBudget.claim(request, {
    family: "account",
    purpose,
    to,
    repeatSeconds: EMAIL_FREQUENCY_SECONDS,
  });
  if (!claim.ok)
    throw tooMany(
      ErrorCode.over_email_send_rate_limit,
      "email rate limit exceeded",
      claim.retryAfterSeconds,
    );
}

export function sentRecently(at: Date | null | undefined): boolean {
  return (
    at !== null &&
    at !== undefined &&
    Date.now() - new Date(at).getTime() < EMAIL_FREQUENCY_SECONDS * 1000
  );
}

export async function emailedRecently(q: Queryable, kind: string, to: string): Promise<boolean> {
  const [row] = await q.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM mail.outbox WHERE kind = $1 AND to_address = $2 AND created_at > now() - make_interval(secs => $3)",
    [kind, to, EMAIL_FREQUENCY_SECONDS],
  );
  return row!.n > 0;
}
