// Reauthentication through supabase-js: with GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION
// on, a session signed in within the day changes its password at once; an older one needs the
// code GET /reauthenticate emails, which works once.
import { expect, it } from "vitest";
import {
  describeAuthSuite,
  describeAuthSuiteEachDatabase,
} from "../../../tests/support/auth-suite.ts";
import { codeIn, PASSWORD } from "../../../tests/support/auth.ts";

const CODE_SUBJECT = "Your Revwise confirmation code";
const ENV = { GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION: "true" };

describeAuthSuite(
  "auth: reauthentication",
  ({ ctx, auth, client, confirmedUser, emailTo }) => {
    /** Makes the session behind this access token a day and an hour old. */
    const age = async (accessToken: string) => {
      const claims = JSON.parse(
        Buffer.from(accessToken.split(".")[1]!, "base64url").toString(),
      ) as { session_id: string };
      await ctx.db.query(
        "UPDATE auth.sessions SET created_at = now() - interval '25 hours' WHERE id = $1",
        [claims.session_id],
      );
    };

    it("changes the password of a recent session without a code", async () => {
      const { supabase } = await confirmedUser("recent");
      const { error } = await supabase.auth.updateUser({
        password: `${PASSWORD}-new`,
        current_password: PASSWORD,
      });
      expect(error).toBeNull();
    });

    it("asks an older session for the emailed code, which works once", async () => {
      const { email, supabase, session } = await confirmedUser("older");
      await age(session.access_token);
      const next = `${PASSWORD}-next`;
      const refused = await supabase.auth.updateUser({
        password: next,
        current_password: PASSWORD,
      });
      expect(refused.error).toMatchObject({ status: 400, code: "reauthentication_needed" });

      expect((await supabase.auth.reauthenticate()).error).toBeNull();
      const again = await supabase.auth.reauthenticate();
      expect(again.error).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
      // The whole seconds left, as GoTrue counts them (errors.go: the remainder dropped).
      await ctx.db.query(
        "UPDATE auth.users SET reauthentication_sent_at = now() - interval '30.5 seconds' WHERE email = $1",
        [email],
      );
      expect((await supabase.auth.reauthenticate()).error?.message).toBe(
        "For security purposes, you can only request this after 29 seconds.",
      );
      const code = codeIn(await emailTo(email, CODE_SUBJECT));

      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
      expect(
        (
          await supabase.auth.updateUser({
            password: next,
            nonce: wrong,
            current_password: PASSWORD,
          })
        ).error,
      ).toMatchObject({ status: 422, code: "reauthentication_not_valid" });
      expect(
        (
          await supabase.auth.updateUser({
            password: next,
            nonce: code,
            current_password: PASSWORD,
          })
        ).error,
      ).toBeNull();
      expect((await client().auth.signInWithPassword({ email, password: next })).error).toBeNull();
      const reused = await supabase.auth.updateUser({
        password: `${next}-2`,
        nonce: code,
        current_password: next,
      });
      expect(reused.error).toMatchObject({ status: 422, code: "reauthentication_not_valid" });
    });

    it("asks for a signed-in user", async () => {
      const res = await auth("/reauthenticate");
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error_code: "no_authorization" });
    });
  },
  ENV,
);

// Requests at the same moment are kept apart by the database alone: on each engine.
describeAuthSuiteEachDatabase(
  "auth: reauthentication requests at the same moment",
  ({ ctx, auth, confirmedUser, emailTo }) => {
    it("emails one code for requests at the same moment; the others are told to wait", async () => {
      const { email, session } = await confirmedUser("at-once");
      const ask = () =>
        auth("/reauthenticate", { headers: { authorization: `Bearer ${session.access_token}` } });
      const statuses = (await Promise.all([ask(), ask(), ask(), ask()])).map((r) => r.status);
      expect(statuses.sort()).toEqual([200, 429, 429, 429]);
      await emailTo(email, CODE_SUBJECT);
      expect(
        await ctx.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM mail.outbox WHERE to_address = $1 AND subject = $2",
          [email, CODE_SUBJECT],
        ),
      ).toEqual([{ n: 1 }]);
    });
  },
  ENV,
);
