// Limits on the emails the auth service sends: a budget per hour for the whole service
// (Supabase's default: 30), and at most one email per purpose and address a minute. The second is
// applied silently (nothing is sent, the answer is the same), so it reveals no account.
import type { Queryable } from "../db/database.ts";
import { AuthError, ErrorCode } from "./errors.ts";

export const EMAIL_FREQUENCY_SECONDS = 60;

export async function assertEmailBudget(q: Queryable, perHour: number): Promise<void> {
  const [row] = await q.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM mail.outbox WHERE kind LIKE 'auth-%' AND created_at > now() - interval '1 hour'",
  );
  if (row!.n >= perHour)
    throw new AuthError(429, ErrorCode.over_email_send_rate_limit, "email rate limit exceeded");
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
