// The link of an account email, as the site's page for it (/auth/confirm) reads and uses it: its
// token hash and type from the query, the page of this site to go on to, and supabase-js's
// verifyOtp with the token hash once the reader presses the page's button (never before: a mail
// scanner opens links too).
import type { EmailLinkType } from "../content/email-link.ts";
import { returnPath } from "./account.ts";
import { readableMessage } from "./errors.ts";
import { getSupabase } from "./supabase.ts";

const TYPES: readonly EmailLinkType[] = [
  "signup",
  "invite",
  "magiclink",
  "recovery",
  "email_change",
];

export type EmailLink = { tokenHash: string; type: EmailLinkType; next: string };

/**
 * The link in the page's query (`token_hash`, `type`, `redirect_to`), or null when it lacks its
 * token or names no known type. Where it goes on is `redirect_to` when that is a page of this
 * site (as `?next=` is read, returnPath), else the home page.
 */
export function readEmailLink(search: string, origin = window.location.origin): EmailLink | null {
  const query = new URLSearchParams(search);
  const tokenHash = query.get("token_hash") ?? "";
  const type = query.get("type") as EmailLinkType | null;
  if (!tokenHash || !type || !TYPES.includes(type)) return null;
  let next = "/";
  try {
    const target = new URL(query.get("redirect_to") ?? "/", origin);
    if (target.origin === origin)
      next = returnPath(
        `?${new URLSearchParams({ next: target.pathname + target.search + target.hash })}`,
        origin,
      );
  } catch {
    // Not a URL: the home page.
  }
  return { tokenHash, type, next };
}

export type EmailLinkOutcome =
  /** A session is stored (supabase-js keeps it): go on to `next`. */
  | { kind: "signed-in" }
  /** The first of an email change's two links: the other one is owed. */
  | { kind: "other-link" }
  | { kind: "expired" }
  | { kind: "failed"; message: string };

/** Uses the link (POST /auth/v1/verify with its token hash). */
export async function verifyEmailLink(link: EmailLink): Promise<EmailLinkOutcome> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.verifyOtp({
    token_hash: link.tokenHash,
    type: link.type,
  });
  if (error)
    return error.code === "otp_expired"
      ? { kind: "expired" }
      : { kind: "failed", message: readableMessage(error) };
  return data.session ? { kind: "signed-in" } : { kind: "other-link" };
}
