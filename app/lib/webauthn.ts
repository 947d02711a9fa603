// Passkeys and security keys in the browser, through supabase-js's own WebAuthn helpers (its
// signInWithPasskey, registerPasskey, passkey.* and mfa.webauthn.*: no WebAuthn code of ours is
// shipped): whether this browser and the server offer passkeys, a passkey sign-in (from a button,
// or from the email field's autofill), the account's passkeys, and security keys as a second step.
import type { SupabaseClient } from "@supabase/supabase-js";
import { anonKey, getSupabase } from "./supabase.ts";
import { toast, type ToastInput } from "./toast.ts";

/** A passkey as the server lists it. */
export type Passkey = {
  id: string;
  friendly_name?: string;
  created_at: string;
  last_used_at?: string;
};

/** How a ceremony ended: done, the browser's prompt closed (or failed), or the server refused. */
export type Outcome =
  { ok: true } | { ok: false; reason: "cancelled" | "refused"; message?: string };

/** Whether this browser can make and use passkeys at all (WebAuthn). */
export const browserHasWebAuthn = () =>
  typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";

let offered: Promise<boolean> | undefined;
/** Whether the browser can, and the server has passkeys on (its /settings), asked once a page. */
export function passkeysOffered(): Promise<boolean> {
  if (!browserHasWebAuthn()) return Promise.resolve(false);
  offered ??= fetch(`${window.location.origin}/auth/v1/settings`, {
    headers: { apikey: anonKey() },
  })
    .then(async (res) => res.ok && (await res.json()).passkeys_enabled === true)
    .catch(() => false);
  return offered;
}

/** Whether the browser fills passkeys into the email field (conditional mediation). */
export async function passkeyAutofillAvailable(): Promise<boolean> {
  const check = window.PublicKeyCredential?.isConditionalMediationAvailable;
  return typeof check === "function" && (await check.call(window.PublicKeyCredential));
}

/** An error from the server (it has a status) or from the browser's ceremony (it has none). */
function outcomeOf(error: { message: string; status?: number } | null): Outcome {
  if (!error) return { ok: true };
  return typeof error.status === "number" && error.status > 0
    ? { ok: false, reason: "refused", message: error.message }
    : { ok: false, reason: "cancelled" };
}

/**
 * Says how adding a credential ended: `added` (true), or `notAdded` for a prompt closed without
 * one (false); the server's refusal is thrown, for the caller's error toast.
 */
export function announceAdded(
  outcome: Outcome,
  notices: { added: ToastInput; notAdded: ToastInput },
): boolean {
  if (!outcome.ok && outcome.reason === "refused") throw new Error(outcome.message);
  toast(outcome.ok ? notices.added : notices.notAdded);
  return outcome.ok;
}

/**
 * A passkey sign-in: from the browser's prompt, or (`autofill`) when the person picks a passkey
 * the email field offers. supabase-js stores the session it gives.
 */
export async function signInWithPasskey(autofill = false): Promise<Outcome> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.signInWithPasskey(
    autofill ? { options: { mediation: "conditional" } } : undefined,
  );
  return outcomeOf(error);
}

export async function listPasskeys(): Promise<Passkey[]> {
  const { data, error } = await (await getSupabase()).auth.passkey.list();
  if (error) throw error;
  return (data ?? []) as Passkey[];
}

export async function addPasskey(): Promise<Outcome> {
  const { error } = await (await getSupabase()).auth.registerPasskey();
  return outcomeOf(error);
}

export async function renamePasskey(passkeyId: string, friendlyName: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.passkey.update({ passkeyId, friendlyName });
  if (error) throw error;
}

export async function removePasskey(passkeyId: string): Promise<void> {
  const { error } = await (await getSupabase()).auth.passkey.delete({ passkeyId });
  if (error) throw error;
}

/** The relying party auth-js names with a security key's ceremony: this page's. */
const here = () => ({ rpId: window.location.hostname, rpOrigins: [window.location.origin] });

/** A new security key (a WebAuthn factor), made and verified in one go: the session is aal2 after. */
export async function addSecurityKey(friendlyName: string): Promise<Outcome> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.mfa.webauthn.register({ friendlyName, webauthn: here() });
  return outcomeOf(error);
}

/** The security key of this factor answers: the session is raised to aal2. */
export async function answerWithSecurityKey(factorId: string): Promise<Outcome> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.mfa.webauthn.authenticate({ factorId, webauthn: here() });
  return outcomeOf(error);
}

/** The verified security keys of the signed-in user. */
export async function securityKeys(supabase: SupabaseClient) {
  const { data } = await supabase.auth.mfa.listFactors();
  return data?.webauthn.filter((f) => f.status === "verified") ?? [];
}
