// Security keys (WebAuthn factors) through supabase-js's mfa.enroll / challenge / verify, with a
// software authenticator signing real answers: the factor's first ceremony stores its credential
// and makes the session aal2 (`mfa/webauthn` in its amr); later sign-ins step up with an
// assertion by that credential; a replayed, foreign or backwards answer is refused; and the
// workspace's aal2 gate takes the security key as a member's second factor.
import { expect, it } from "vitest";
import type { SupabaseClient } from "@supabase/supabase-js";
import {
  describeAuthSuite,
  describeAuthSuiteEachDatabase,
} from "../../../tests/support/auth-suite.ts";
import { PASSWORD } from "../../../tests/support/auth.ts";
import { SoftwareAuthenticator, type Lie } from "../../../tests/support/software-authenticator.ts";
import { teamMember } from "../../../tests/support/team.ts";

const ORIGIN = "http://localhost:5173";
const WEBAUTHN = {
  GOTRUE_MFA_WEB_AUTHN_ENROLL_ENABLED: "true",
  GOTRUE_MFA_WEB_AUTHN_VERIFY_ENABLED: "true",
  GOTRUE_WEBAUTHN_RP_ID: "localhost",
  GOTRUE_WEBAUTHN_RP_ORIGINS: ORIGIN,
};
const RP = { rpId: "localhost", rpOrigins: [ORIGIN] };

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as {
    aal: string;
    amr: { method: string }[];
  };

const b64 = (buffer: ArrayBuffer | ArrayBufferView) =>
  Buffer.from(buffer instanceof ArrayBuffer ? buffer : buffer.buffer).toString("base64url");

/**
 * auth-js hands the browser's options with their bytes decoded (ArrayBuffers); the authenticator
 * takes the JSON form, as the browser's own parser would have read it.
 */
function asJson(publicKey: Record<string, unknown>) {
  const ids = (list: unknown) =>
    ((list as { id: ArrayBuffer }[] | undefined) ?? []).map((c) => ({ id: b64(c.id) }));
  const user = publicKey.user as { id: ArrayBuffer } | undefined;
  return {
    challenge: b64(publicKey.challenge as ArrayBuffer),
    rp: publicKey.rp as { id: string },
    rpId: publicKey.rpId as string,
    user: { id: user ? b64(user.id) : "" },
    excludeCredentials: ids(publicKey.excludeCredentials),
    allowCredentials: ids(publicKey.allowCredentials),
  };
}

/** One ceremony of the factor: its challenge, the key's answer (with any lie), the verify. */
async function ceremony(
  supabase: SupabaseClient,
  key: SoftwareAuthenticator,
  factorId: string,
  lie: Lie = {},
  /** The credential that answers, when not one the options allow (a key of another account's). */
  credential?: SoftwareAuthenticator["credentials"][number],
) {
  const { data, error } = await supabase.auth.mfa.challenge({ factorId, webauthn: RP });
  expect(error).toBeNull();
  const { type, credential_options } = (
    data as unknown as {
      webauthn: {
        type: "create" | "request";
        credential_options: { publicKey: Record<string, unknown> };
      };
    }
  ).webauthn;
  const options = asJson(credential_options.publicKey);
  const json = type === "create" ? key.create(options, lie) : key.get(options, lie, credential);
  const answer = { toJSON: () => json };
  const verify = () =>
    supabase.auth.mfa.verify({
      factorId,
      challengeId: data!.id,
      webauthn: { type, ...RP, credential_response: answer as never },
    } as never);
  return { result: await verify(), again: verify, type };
}

describeAuthSuiteEachDatabase(
  "auth: MFA (security keys)",
  ({ server, client, confirmedUser }) => {
    it("enrols a security key to aal2, steps up with it later, and refuses bad answers", async () => {
      const { supabase, email } = await confirmedUser("key");
      const key = new SoftwareAuthenticator(ORIGIN, false);
      const enrolled = await supabase.auth.mfa.enroll({
        factorType: "webauthn",
        friendlyName: "YubiKey",
      });
      expect(enrolled.error).toBeNull();
      expect(enrolled.data).toMatchObject({ type: "webauthn", friendly_name: "YubiKey" });
      const factorId = enrolled.data!.id;

      // A registration from another origin does not verify the factor.
      const foreign = await ceremony(supabase, key, factorId, { origin: "https://evil.example" });
      expect(foreign.type).toBe("create");
      expect(foreign.result.error).toMatchObject({
        status: 400,
        code: "webauthn_verification_failed",
      });

      const good = new SoftwareAuthenticator(ORIGIN, false);
      const first = await ceremony(supabase, good, factorId);
      expect(first.result.error).toBeNull();
      const claims = claimsOf(first.result.data!.access_token);
      expect(claims.aal).toBe("aal2");
      expect(claims.amr.map((a) => a.method)).toEqual(["mfa/webauthn", "password"]);
      expect((await supabase.auth.mfa.listFactors()).data?.webauthn).toEqual([
        expect.objectContaining({ id: factorId, status: "verified", factor_type: "webauthn" }),
      ]);
      // The answer again: its challenge was used (GoTrue's answer to a verified challenge).
      expect((await first.again()).error).toMatchObject({
        status: 422,
        code: "mfa_ip_address_mismatch",
      });

      // A later sign-in is aal1 until the key answers: another key's signature does not count.
      const later = client();
      await later.auth.signInWithPassword({ email, password: PASSWORD });
      const other = await ceremony(later, key, factorId, {}, key.credentials[0]);
      expect(other.type).toBe("request");
      expect(other.result.error).toMatchObject({
        status: 400,
        code: "webauthn_verification_failed",
      });
      expect((await later.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
        currentLevel: "aal1",
        nextLevel: "aal2",
      });
      const stepped = await ceremony(later, good, factorId);
      expect(stepped.result.error).toBeNull();
      expect(claimsOf(stepped.result.data!.access_token).aal).toBe("aal2");
    });

    it("counts a security key as a team member's second factor", async () => {
      const member = await teamMember({ server, client, confirmedUser }, "keyed", { aal2: false });
      const refused = await member.supabase.from("leads").select("id").limit(1);
      expect(refused.error).toMatchObject({ code: "42501" });
      const key = new SoftwareAuthenticator(ORIGIN, false);
      const { data } = await member.supabase.auth.mfa.enroll({ factorType: "webauthn" });
      expect((await ceremony(member.supabase, key, data!.id)).result.error).toBeNull();
      const read = await member.supabase.from("leads").select("id").limit(1);
      expect(read.error).toBeNull();

      // Signed in again elsewhere, the member steps up with the key alone, not with a replay.
      const device = client();
      await device.auth.signInWithPassword({ email: member.email, password: PASSWORD });
      expect((await device.from("leads").select("id").limit(1)).error).toMatchObject({
        code: "42501",
      });
      const stepUp = await ceremony(device, key, data!.id);
      expect(stepUp.type).toBe("request");
      expect(stepUp.result.error).toBeNull();
      expect(claimsOf(stepUp.result.data!.access_token).amr[0]!.method).toBe("mfa/webauthn");
      expect((await device.from("leads").select("id").limit(1)).error).toBeNull();

      // A counter going backwards, or the right key signing for another relying party, is refused.
      const third = client();
      await third.auth.signInWithPassword({ email: member.email, password: PASSWORD });
      for (const lie of [{ counter: 1 }, { rpId: "evil.example" }]) {
        const { result } = await ceremony(third, key, data!.id, lie);
        expect(result.error).toMatchObject({ status: 400, code: "webauthn_verification_failed" });
      }
      expect((await ceremony(third, key, data!.id)).result.error).toBeNull();
    });
  },
  WEBAUTHN,
);

describeAuthSuite("auth: MFA security keys turned off", ({ confirmedUser }) => {
  it("answers GoTrue's 422 for a WebAuthn factor", async () => {
    const { supabase } = await confirmedUser("off");
    expect((await supabase.auth.mfa.enroll({ factorType: "webauthn" })).error).toMatchObject({
      status: 422,
      code: "mfa_webauthn_enroll_not_enabled",
    });
  });
});
