// Team members for the workspace's tests: an account given a team role with the admin API, signed
// in on a fresh client, and raised to aal2 with a real TOTP code when asked (as the workspace
// asks every member to).
import type { SupabaseClient } from "@supabase/supabase-js";
import { expect } from "vitest";
import { stepAt, totpCode } from "./totp.ts";
import { PASSWORD } from "./auth.ts";
import type { AuthSuite } from "./auth-suite.ts";

export async function teamMember(
  suite: Pick<AuthSuite, "server" | "client" | "confirmedUser">,
  label: string,
  opts: { aal2: boolean; role?: "member" | "admin" },
): Promise<{ supabase: SupabaseClient; id: string; email: string }> {
  const { email, session } = await suite.confirmedUser(label);
  const admin = suite.server.admin().auth.admin;
  await admin.updateUserById(session.user.id, {
    app_metadata: { team_role: opts.role ?? "member" },
  });
  const supabase = suite.client();
  await supabase.auth.signInWithPassword({ email, password: PASSWORD });
  if (opts.aal2) await raiseToAal2(supabase);
  return { supabase, id: session.user.id, email };
}

/**
 * Enrols an authenticator app for the signed-in client and verifies a code from it (aal2); the
 * factor's id.
 */
export async function raiseToAal2(supabase: SupabaseClient): Promise<string> {
  const { data } = await supabase.auth.mfa.enroll({ factorType: "totp" });
  const factor = data as { id: string; totp: { secret: string } };
  const verified = await supabase.auth.mfa.challengeAndVerify({
    factorId: factor.id,
    code: totpCode(factor.totp.secret, stepAt(Date.now())),
  });
  expect(verified.error).toBeNull();
  return factor.id;
}
