// Recovery codes: ten made from an aal2 session (shown once, stored hashed), each a second factor
// once (the session becomes aal2 with "recovery" in its amr), typed loosely; a new set replaces the
// old; wrong ones lock the set; they count wherever a second factor is asked (a new password, the
// team's reads); they go with the last factor, and the admin API's reset takes every factor and
// code and ends the person's sessions.
import type { SupabaseClient } from "@supabase/supabase-js";
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { codeIn, PASSWORD } from "../../../tests/support/auth.ts";
import { raiseToAal2 } from "../../../tests/support/team.ts";

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as {
    aal: string;
    amr: { method: string }[];
  };

type Session = { access_token: string; refresh_token: string };

describeAuthSuite(
  "auth: recovery codes",
  ({ ctx, server, auth, client, confirmedUser, emailTo }) => {
    /** A raw request to a recovery-code route with this session's access token. */
    const as = async (token: string, path: string, body?: object) => {
      const res = await auth(`/recovery_codes${path}`, {
        method: body ? "POST" : "GET",
        ...(body && { body: JSON.stringify(body) }),
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const tokenOf = async (supabase: SupabaseClient) =>
      (await supabase.auth.getSession()).data.session!.access_token;

    /** A person with an authenticator app and recovery codes, and a new aal1 sign-in of theirs. */
    async function withCodes(label: string) {
      const { email, supabase, session } = await confirmedUser(label);
      const factorId = await raiseToAal2(supabase);
      const made = await as(await tokenOf(supabase), "", {});
      expect(made.status).toBe(200);
      const codes = made.body.codes as string[];
      const later = client();
      await later.auth.signInWithPassword({ email, password: PASSWORD });
      return { email, supabase, userId: session.user.id, factorId, codes, later };
    }

    it("makes ten codes shown once and stored hashed; each raises an aal1 session to aal2 once", async () => {
      const { email, userId, codes, later, supabase } = await withCodes("recovery");
      expect(codes).toHaveLength(10);
      for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      expect(new Set(codes).size).toBe(10);
      const stored = await ctx.db.query<{ code_hash: string }>(
        "SELECT code_hash FROM auth.mfa_recovery_codes WHERE user_id = $1",
        [userId],
      );
      expect(stored).toHaveLength(10);
      const plain = codes.map((c) => c.replace("-", ""));
      for (const { code_hash } of stored)
        for (const code of plain) expect(code_hash).not.toContain(code);
      expect((await as(await tokenOf(supabase), "")).body).toMatchObject({ remaining: 10 });

      const token = await tokenOf(later);
      expect(claimsOf(token).aal).toBe("aal1");
      const used = await as(token, "/verify", { code: codes[0] });
      expect(used.status).toBe(200);
      const claims = claimsOf(used.body.access_token as string);
      expect(claims.aal).toBe("aal2");
      expect(claims.amr.map((a) => a.method)).toEqual(["recovery", "password"]);

      const again = client();
      await again.auth.signInWithPassword({ email, password: PASSWORD });
      const reuse = await as(await tokenOf(again), "/verify", { code: codes[0] });
      expect([reuse.status, reuse.body.code]).toEqual([422, "mfa_verification_failed"]);
      // Typed loosely: capitals, a space for the dash.
      const loose = await as(await tokenOf(again), "/verify", {
        code: ` ${codes[1]!.toUpperCase().replace("-", " ")} `,
      });
      expect(loose.status).toBe(200);
      expect((await as(loose.body.access_token as string, "")).body).toMatchObject({
        remaining: 8,
      });
    });

    it("makes codes only from an aal2 session, and a new set replaces the old", async () => {
      const { supabase, codes, later } = await withCodes("recovery-new-set");
      expect(await as(await tokenOf(later), "", {})).toMatchObject({
        status: 403,
        body: expect.objectContaining({ code: "insufficient_aal" }),
      });
      const { session: noFactor } = await confirmedUser("recovery-no-factor");
      expect((await as(noFactor.access_token, "", {})).status).toBe(403);
      expect((await as(noFactor.access_token, "/verify", { code: codes[2] })).status).toBe(422);

      const renewed = await as(await tokenOf(supabase), "", {});
      expect(renewed.status).toBe(200);
      const old = await as(await tokenOf(later), "/verify", { code: codes[0] });
      expect([old.status, old.body.code]).toEqual([422, "mfa_verification_failed"]);
      const fresh = await as(await tokenOf(later), "/verify", {
        code: (renewed.body.codes as string[])[0],
      });
      expect(fresh.status).toBe(200);
    });

    it("locks the codes for a while after five wrong ones in a row", async () => {
      const { codes, later } = await withCodes("recovery-wrong");
      const token = await tokenOf(later);
      for (let i = 0; i < 5; i++)
        expect((await as(token, "/verify", { code: `aaaaa-aaaa${i + 2}` })).status).toBe(422);
      const locked = await as(token, "/verify", { code: codes[0] });
      expect([locked.status, locked.body.code]).toEqual([429, "over_request_rate_limit"]);
      expect(locked.body.msg).toMatch(
        /^For security purposes, you can only request this after \d+ seconds\.$/,
      );
    });

    it("counts as the second factor a new password asks for after a password reset", async () => {
      const { email, codes } = await withCodes("recovery-reset");
      const person = client();
      await person.auth.resetPasswordForEmail(email);
      const code = codeIn(await emailTo(email, "Reset your Revwise password"));
      expect(
        (await person.auth.verifyOtp({ email, token: code, type: "recovery" })).error,
      ).toBeNull();
      const next = `${PASSWORD}-recovered`;
      expect((await person.auth.updateUser({ password: next })).error).toMatchObject({
        code: "insufficient_aal",
      });
      const used = await as(await tokenOf(person), "/verify", { code: codes[3] });
      expect(used.status).toBe(200);
      await person.auth.setSession(used.body as unknown as Session);
      expect((await person.auth.updateUser({ password: next })).error).toBeNull();
      expect((await client().auth.signInWithPassword({ email, password: next })).error).toBeNull();
    });

    it("opens the team's reads as a second factor does", async () => {
      const { userId, codes, later } = await withCodes("recovery-team");
      await server
        .admin()
        .auth.admin.updateUserById(userId, { app_metadata: { team_role: "member" } });
      await later.auth.refreshSession();
      const read = (token: string) =>
        server.fetch(`${server.url}/rest/v1/leads?select=email&limit=1`, {
          headers: { apikey: server.anonKey, authorization: `Bearer ${token}` },
        });
      expect((await read(await tokenOf(later))).status).toBe(403);
      const used = await as(await tokenOf(later), "/verify", { code: codes[4] });
      expect((await read(used.body.access_token as string)).status).toBe(200);
    });

    it("goes with the last factor; the admin's reset takes every factor and code and ends the sessions", async () => {
      const { supabase, factorId } = await withCodes("recovery-last");
      expect((await supabase.auth.mfa.unenroll({ factorId })).error).toBeNull();
      expect((await as(await tokenOf(supabase), "")).body).toEqual({
        remaining: 0,
        created_at: null,
      });

      const { userId, later } = await withCodes("recovery-admin");
      const reset = await server.fetch(`${server.url}/auth/v1/admin/users/${userId}/factors`, {
        method: "DELETE",
        headers: {
          apikey: server.serviceRoleKey,
          authorization: `Bearer ${server.serviceRoleKey}`,
        },
      });
      expect(reset.status).toBe(200);
      expect(await reset.json()).toEqual([expect.objectContaining({ status: "verified" })]);
      // Its sessions ended: the server no longer knows the token.
      expect((await later.auth.getUser()).data.user).toBeNull();
      expect((await server.admin().auth.admin.mfa.listFactors({ userId })).data?.factors).toEqual(
        [],
      );
      expect(
        await ctx.db.query("SELECT 1 FROM auth.mfa_recovery_sets WHERE user_id = $1", [userId]),
      ).toEqual([]);
    });
  },
);
