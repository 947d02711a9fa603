// Two instances of the built server on one PostgreSQL, handed codes at the same moment (two tabs,
// or a guesser spreading tries over a balancer): the same right code (a texted code, an
// authenticator app's, a recovery code) works once; wrong codes sent to both at once are each
// counted, so the fifth kills a texted code, and locks an authenticator app or the recovery codes,
// whichever instance took it. The counts live in the database.
import { createClient } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { stepAt, totpCode } from "../support/totp.ts";
import { PASSWORD, uniqueEmail, uniquePhone } from "../support/auth.ts";
import { postgresAvailable } from "../support/postgres.ts";
import { NO_CLIENT_LIMITS, useRacingInstances } from "../support/racing-instances.ts";
import type { RunningServer } from "../support/server-process.ts";

describe.skipIf(!(await postgresAvailable()))("codes verified on two instances", () => {
  const instances = useRacingInstances({
    GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
    ...NO_CLIENT_LIMITS,
  });
  const { racing } = instances;

  /** POSTs to /auth/v1 of one instance: the status and GoTrue's error code. */
  const post = async (server: RunningServer, path: string, body: object, token?: string) => {
    const res = await fetch(`${server.url}/auth/v1${path}`, {
      method: "POST",
      headers: {
        apikey: server.anonKey,
        "content-type": "application/json",
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(body),
    });
    return [res.status, ((await res.json()) as { code?: string }).code] as const;
  };
  /** A different code of the same length for each i. */
  const wrong = (code: string, i: number) =>
    String((Number(code) + i + 1) % 10 ** code.length).padStart(code.length, "0");

  /** A number with an account, texted a sign-in code: the code. */
  async function textedCode() {
    const phone = uniquePhone();
    const created = await instances.admin.auth.admin.createUser({ phone, phone_confirm: true });
    expect(created.error).toBeNull();
    expect((await post(instances.verifier, "/otp", { phone }))[0]).toBe(200);
    return { phone, code: await instances.hook.codeFor(phone) };
  }

  it("signs in once with a texted code sent to both at once", async () => {
    for (let round = 0; round < 4; round++) {
      const { phone, code } = await textedCode();
      const answers = await Promise.all(
        racing.map((s) => post(s, "/verify", { type: "sms", phone, token: code })),
      );
      expect(answers.sort()).toEqual([
        [200, undefined],
        [403, "otp_expired"],
      ]);
    }
  });

  it("counts every wrong texted code sent to both at once: the fifth kills the code", async () => {
    const { phone, code } = await textedCode();
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        post(racing[i % 2]!, "/verify", { type: "sms", phone, token: wrong(code, i) }),
      ),
    );
    expect(answers).toEqual(Array(5).fill([403, "otp_expired"]));
    expect(await post(racing[0]!, "/verify", { type: "sms", phone, token: code })).toEqual([
      403,
      "otp_expired",
    ]);
  });

  /** A signed-in user with an authenticator app enrolled: its secret and a challenge maker. */
  async function withAuthenticator() {
    const email = uniqueEmail("wrong-race");
    await instances.admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    const supabase = createClient(instances.verifier.url, instances.verifier.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const signedIn = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    const token = signedIn.data.session!.access_token;
    const { data } = await supabase.auth.mfa.enroll({ factorType: "totp" });
    const { id: factorId, totp } = data as { id: string; totp: { secret: string } };
    const challenge = async () => {
      const res = await fetch(`${instances.verifier.url}/auth/v1/factors/${factorId}/challenge`, {
        method: "POST",
        headers: { apikey: instances.verifier.anonKey, authorization: `Bearer ${token}` },
      });
      return ((await res.json()) as { id: string }).id;
    };
    return { token, factorId, secret: totp.secret, challenge };
  }

  it("takes an authenticator app's code once when it is sent to both at once", async () => {
    const { token, factorId, secret, challenge } = await withAuthenticator();
    const challenges = [await challenge(), await challenge()];
    const code = totpCode(secret, stepAt(Date.now()));
    const answers = await Promise.all(
      racing.map((s, i) =>
        post(s, `/factors/${factorId}/verify`, { challenge_id: challenges[i], code }, token),
      ),
    );
    expect(answers.sort()).toEqual([
      [200, undefined],
      [422, "mfa_verification_failed"],
    ]);
  });

  it("counts every wrong authenticator code sent to both at once: the fifth locks the factor", async () => {
    const { token, factorId, secret, challenge } = await withAuthenticator();
    const challenges = await Promise.all(Array.from({ length: 6 }, () => challenge()));
    const far = stepAt(Date.now()) + 1000;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        post(
          racing[i % 2]!,
          `/factors/${factorId}/verify`,
          { challenge_id: challenges[i], code: totpCode(secret, far + i) },
          token,
        ),
      ),
    );
    expect(answers).toEqual(Array(5).fill([422, "mfa_verification_failed"]));
    const right = totpCode(secret, stepAt(Date.now()));
    expect(
      await post(
        racing[1]!,
        `/factors/${factorId}/verify`,
        { challenge_id: challenges[5], code: right },
        token,
      ),
    ).toEqual([429, "over_request_rate_limit"]);
  });

  it("takes a recovery code once when it is sent to both at once, and counts wrong ones across them", async () => {
    const { token, factorId, secret, challenge } = await withAuthenticator();
    const raised = await fetch(`${instances.verifier.url}/auth/v1/factors/${factorId}/verify`, {
      method: "POST",
      headers: {
        apikey: instances.verifier.anonKey,
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({
        challenge_id: await challenge(),
        code: totpCode(secret, stepAt(Date.now())),
      }),
    });
    const aal2 = ((await raised.json()) as { access_token: string }).access_token;
    const made = await fetch(`${instances.verifier.url}/auth/v1/recovery_codes`, {
      method: "POST",
      headers: { apikey: instances.verifier.anonKey, authorization: `Bearer ${aal2}` },
    });
    const { codes } = (await made.json()) as { codes: string[] };

    const answers = await Promise.all(
      racing.map((s) => post(s, "/recovery_codes/verify", { code: codes[0] }, aal2)),
    );
    expect(answers.sort()).toEqual([
      [200, undefined],
      [422, "mfa_verification_failed"],
    ]);

    const wrongs = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        post(racing[i % 2]!, "/recovery_codes/verify", { code: `aaaaa-aaaa${i + 2}` }, aal2),
      ),
    );
    // With the reuse above, five wrong in a row: the codes are locked whichever instance asks.
    expect(wrongs).toEqual(Array(4).fill([422, "mfa_verification_failed"]));
    expect(await post(racing[1]!, "/recovery_codes/verify", { code: codes[1] }, aal2)).toEqual([
      429,
      "over_request_rate_limit",
    ]);
  });
});
