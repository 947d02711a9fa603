// Two instances of the built server on one PostgreSQL, each handed the same
// POST /auth/v1/factors/{id}/challenge of a phone factor at the same moment (two tabs, or a
// balancer): the number is texted one code, not two; the other request is answered as GoTrue
// answers a challenge within GOTRUE_MFA_PHONE_MAX_FREQUENCY, and the code texted verifies. A code
// the Send SMS hook refused leaves no challenge and gives the interval back. The interval is
// claimed on the factor's row in the database.
import pg from "pg";
import { createClient } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { PASSWORD, uniqueEmail, uniquePhone } from "../support/auth.ts";
import { postgresAvailable } from "../support/postgres.ts";
import { NO_CLIENT_LIMITS, useRacingInstances } from "../support/racing-instances.ts";
import type { RunningServer } from "../support/server-process.ts";

const ROUNDS = 6;

describe.skipIf(!(await postgresAvailable()))("MFA phone challenges from two instances", () => {
  const instances = useRacingInstances({
    GOTRUE_MFA_PHONE_ENROLL_ENABLED: "true",
    GOTRUE_MFA_PHONE_VERIFY_ENABLED: "true",
    GOTRUE_MFA_PHONE_MAX_FREQUENCY: "60",
    ...NO_CLIENT_LIMITS,
  });
  const { racing } = instances;

  /** A signed-in user (on the verifier) with a phone factor enrolled and never challenged. */
  async function enrolled() {
    const email = uniqueEmail("mfa-race");
    const created = await instances.admin.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    const supabase = createClient(instances.verifier.url, instances.verifier.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const signedIn = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    const phone = uniquePhone();
    const factor = await supabase.auth.mfa.enroll({ factorType: "phone", phone: `+${phone}` });
    expect(factor.error).toBeNull();
    return {
      supabase,
      phone,
      factorId: factor.data!.id,
      token: signedIn.data.session!.access_token,
    };
  }

  const challengeAt = async (server: RunningServer, token: string, factorId: string) => {
    const res = await fetch(`${server.url}/auth/v1/factors/${factorId}/challenge`, {
      method: "POST",
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
      },
      body: "{}",
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const textsTo = (phone: string) => instances.hook.messages.filter((m) => m.sms.phone === phone);

  it("texts one code per factor for the same challenge sent to both at once, and that code verifies", async () => {
    // The hook takes a moment, as a real SMS provider does: the two requests overlap.
    instances.hook.answer(() => ({ status: 204, delayMs: 150 }));
    for (let round = 0; round < ROUNDS; round++) {
      const { supabase, phone, factorId, token } = await enrolled();
      const answers = await Promise.all(racing.map((s) => challengeAt(s, token, factorId)));
      // The texts went before the answers: every one of them has arrived.
      expect([phone, textsTo(phone).length]).toEqual([phone, 1]);
      const won = answers.filter((a) => a.status === 200);
      const lost = answers.filter((a) => a.status !== 200);
      expect(won).toHaveLength(1);
      // GoTrue's answer to a challenge within the interval (whole seconds left, rounded down).
      expect(lost.map((a) => [a.status, a.body.code, a.body.msg])).toEqual([
        [
          429,
          "over_sms_send_rate_limit",
          "For security purposes, you can only request this after 59 seconds.",
        ],
      ]);
      const verified = await supabase.auth.mfa.verify({
        factorId,
        challengeId: won[0]!.body.id as string,
        code: textsTo(phone)[0]!.sms.otp,
      });
      expect(verified.error).toBeNull();
      expect(verified.data?.user.factors?.[0]).toMatchObject({ id: factorId, status: "verified" });
    }
  });

  it("raises the session once for the same code sent to both at once", async () => {
    instances.hook.answer(undefined);
    const { phone, factorId, token } = await enrolled();
    const challenge = await challengeAt(racing[0]!, token, factorId);
    expect(challenge.status).toBe(200);
    const code = (await instances.hook.waitFor(phone)).sms.otp;
    const answers = await Promise.all(
      racing.map(async (server) => {
        const res = await fetch(`${server.url}/auth/v1/factors/${factorId}/verify`, {
          method: "POST",
          headers: {
            apikey: server.anonKey,
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
          },
          body: JSON.stringify({ challenge_id: challenge.body.id, code }),
        });
        return [res.status, ((await res.json()) as { code?: string }).code];
      }),
    );
    // The challenge is used once: the other verify is GoTrue's answer to a used challenge.
    expect(answers.sort()).toEqual([
      [200, undefined],
      [422, "mfa_ip_address_mismatch"],
    ]);
  });

  it("leaves no challenge and gives the interval back when the hook refuses the text", async () => {
    const { supabase, phone, factorId, token } = await enrolled();
    // Refused, and slowly: the other request comes while the first waits on the hook.
    instances.hook.answer(() => ({ status: 400, delayMs: 150 }));
    const answers = await Promise.all(racing.map((s) => challengeAt(s, token, factorId)));
    expect(answers.map((a) => [a.status, a.body.code]).sort()).toEqual([
      [429, "over_sms_send_rate_limit"],
      [500, "unexpected_failure"],
    ]);
    expect(textsTo(phone)).toHaveLength(1);
    const db = new pg.Client({ connectionString: instances.database.url });
    await db.connect();
    const challenges = await db
      .query("SELECT id FROM auth.mfa_challenges WHERE factor_id = $1", [factorId])
      .finally(() => db.end());
    expect(challenges.rows).toEqual([]);

    // The interval was given back: a challenge at once is texted, and its code verifies.
    instances.hook.answer(undefined);
    const again = await challengeAt(racing[0]!, token, factorId);
    expect(again.status).toBe(200);
    expect(textsTo(phone)).toHaveLength(2);
    const verified = await supabase.auth.mfa.verify({
      factorId,
      challengeId: again.body.id as string,
      code: textsTo(phone)[1]!.sms.otp,
    });
    expect(verified.error).toBeNull();
  });
});
