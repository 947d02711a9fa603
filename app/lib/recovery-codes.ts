// Recovery codes (decision 0038): how many the signed-in person has left, ten new ones (answered
// once, to be shown once), and one used in place of the authenticator app's code, which raises
// the session to aal2. supabase-js has no call for these /auth/v1 routes: they are fetched here
// with the session's access token (through the client's own fetch, so an answer saying the
// session is gone ends it on the page as any other does), and the raised session the server
// answers with is handed to supabase-js, which stores it and tells the page's listeners.
import type { Session } from "@supabase/supabase-js";
import { recoveryCodeStep } from "../content/two-step.ts";
import { readableError, SESSION_ENDED } from "./errors.ts";
import { anonKey, getSupabase, watchedFetch } from "./supabase.ts";

/** How many unused codes are left, and when the set was made (null without a set). */
export type RecoveryCodesLeft = { remaining: number; createdAt: string | null };

/** A new set: its codes, shown once, and when it was made. */
export type NewRecoveryCodes = { codes: string[]; createdAt: string };

/** A refusal in GoTrue's shape: its words, its code and status, read by lib/errors.ts. */
export class RecoveryCodesError extends Error {
  readonly code: string | undefined;
  readonly status: number;
  constructor(message: string, code: string | undefined, status: number) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

const ROUTE = "/auth/v1/recovery_codes";

async function call<T>(path: string, body?: object): Promise<T> {
  const supabase = await getSupabase();
  const { session } = (await supabase.auth.getSession()).data;
  if (!session) throw new Error(SESSION_ENDED);
  const response = await watchedFetch(`${window.location.origin}${ROUTE}${path}`, {
    method: body ? "POST" : "GET",
    headers: {
      apikey: anonKey(),
      authorization: `Bearer ${session.access_token}`,
      ...(body && { "content-type": "application/json" }),
    },
    ...(body && { body: JSON.stringify(body) }),
  });
  const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok) {
    const message = typeof answer?.message === "string" ? answer.message : response.statusText;
    const code = typeof answer?.code === "string" ? answer.code : undefined;
    throw new RecoveryCodesError(message, code, response.status);
  }
  return answer as T;
}

/** GET /recovery_codes: how many are left (never a code). */
export async function recoveryCodesLeft(): Promise<RecoveryCodesLeft> {
  const left = await call<{ remaining: number; created_at: string | null }>("");
  return { remaining: left.remaining, createdAt: left.created_at };
}

/** POST /recovery_codes: ten new codes (the old ones stop working); needs an aal2 session. */
export async function makeRecoveryCodes(): Promise<NewRecoveryCodes> {
  const made = await call<{ codes: string[]; created_at: string }>("", {});
  return { codes: made.codes, createdAt: made.created_at };
}

/**
 * POST /recovery_codes/verify: uses one code, which raises this session to aal2 (supabase-js
 * stores the new tokens); null when it worked, else the message to show under the field.
 */
export async function verifyRecoveryCode(code: string): Promise<string | null> {
  let raised: Session;
  try {
    raised = await call<Session>("/verify", { code });
  } catch (error) {
    // A wrong or used code in people's words; a lock after wrong ones with its wait (errors.ts).
    if (error instanceof RecoveryCodesError && error.code === "mfa_verification_failed")
      return recoveryCodeStep.wrong;
    return readableError(error);
  }
  const supabase = await getSupabase();
  const { error } = await supabase.auth.setSession({
    access_token: raised.access_token,
    refresh_token: raised.refresh_token,
  });
  return error ? readableError(error) : null;
}
