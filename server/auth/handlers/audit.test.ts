// The audit log of auth events, read through GET /admin/audit as an operator reads it: each event
// (sign-up, sign-in by method, a refused sign-in, a refresh token's reuse, sign-out, password and
// email changes, factors enrolled, verified and removed, an identity unlinked, the admin's
// actions and the team roles they give) leaves one entry with its actor, address, browser and
// time; the endpoint filters and pages as GoTrue's does, for the service-role key only.
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { PASSWORD, uniqueEmail } from "../../../tests/support/auth.ts";
import { uniqueIp } from "../../../tests/support/api-server.ts";
import { stepAt, totpCode } from "../../../tests/support/totp.ts";
import { LOG_TYPES } from "../../../common/audit.ts";

type Entry = {
  id: string;
  created_at: string;
  ip_address: string;
  payload: {
    actor_id: string;
    actor_username: string;
    action: string;
    log_type: string;
    traits?: Record<string, unknown>;
  };
};

describeAuthSuite(
  "auth: audit log",
  ({ ctx, server, auth, client, confirmedUser, emailTo }) => {
    const asAdmin = (path: string) =>
      auth(path, { headers: { authorization: `Bearer ${server.serviceRoleKey}` } });

    /** Every entry whose actor is `who`, oldest first. */
    async function entriesOf(who: string): Promise<Entry[]> {
      const res = await asAdmin(
        `/admin/audit?per_page=1000&query=author:${encodeURIComponent(who)}`,
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as Entry[]).reverse();
    }
    const actions = async (who: string) =>
      (await entriesOf(who)).map((e) => [e.payload.action, e.payload.traits ?? null]);

    /** The user agent and address stored with the newest entry of `who` and `action`. */
    async function stored(who: string, action: string) {
      const [row] = await ctx.db.query<{
        ip_address: string;
        user_agent: string;
        created_at: Date;
      }>(
        `SELECT ip_address, user_agent, created_at FROM auth.audit_log_entries
         WHERE payload->>'actor_username' = $1 AND payload->>'action' = $2
         ORDER BY created_at DESC LIMIT 1`,
        [who, action],
      );
      return row;
    }

    it("records a sign-up, its confirmation, sign-ins, a refused sign-in and a sign-out with actor, address, browser and time", async () => {
      const before = Date.now();
      const { email, supabase, session } = await confirmedUser("audit-basics");
      const ip = uniqueIp();
      const wrong = await auth("/token?grant_type=password", {
        method: "POST",
        headers: { "x-forwarded-for": ip, "user-agent": "AuditTest/1.0 (wrong password)" },
        body: JSON.stringify({ email, password: "Not-The-Password-9" }),
      });
      expect(wrong.status).toBe(400);
      expect((await supabase.auth.signOut({ scope: "local" })).error).toBeNull();
      expect(await actions(email)).toEqual([
        ["user_confirmation_requested", { provider: "email" }],
        ["user_signedup", { provider: "email" }],
        ["login", { provider: "otp" }],
        ["login", { provider: "password" }],
        ["login_failed", { provider: "email", error_code: "invalid_credentials" }],
        ["logout", { scope: "local" }],
      ]);
      const entries = await entriesOf(email);
      for (const e of entries) {
        expect(e.payload.actor_id).toBe(session.user.id);
        expect(e.payload.log_type).toBe(LOG_TYPES[e.payload.action as keyof typeof LOG_TYPES]);
        expect(new Date(e.created_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
      }
      const failed = await stored(email, "login_failed");
      expect(failed).toMatchObject({
        ip_address: ip,
        user_agent: "AuditTest/1.0 (wrong password)",
      });
      expect(entries.find((e) => e.payload.action === "login_failed")!.ip_address).toBe(ip);

      // A sign-in refused for an address with no account is logged under the address tried.
      const nobody = uniqueEmail("audit-nobody");
      await client().auth.signInWithPassword({ email: nobody, password: PASSWORD });
      const [refused] = await entriesOf(nobody);
      expect(refused!.payload).toMatchObject({
        actor_id: "00000000-0000-0000-0000-000000000000",
        actor_username: nobody,
        action: "login_failed",
      });
    });

    it("records a refresh token used again after its successor, with the session it ended", async () => {
      const { email } = await confirmedUser("audit-reuse");
      const signIn = await auth("/token?grant_type=password", {
        method: "POST",
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      const first = (await signIn.json()) as { refresh_token: string; access_token: string };
      const refresh = (token: string) =>
        auth("/token?grant_type=refresh_token", {
          method: "POST",
          body: JSON.stringify({ refresh_token: token }),
        });
      const second = (await (await refresh(first.refresh_token)).json()) as {
        refresh_token: string;
      };
      await refresh(second.refresh_token);
      await ctx.db.query(
        "UPDATE auth.refresh_tokens SET revoked_at = now() - interval '1 hour' WHERE revoked",
      );
      const reused = await refresh(first.refresh_token);
      expect(reused.status).toBe(400);
      const sessionId = (
        JSON.parse(Buffer.from(first.access_token.split(".")[1]!, "base64url").toString()) as {
          session_id: string;
        }
      ).session_id;
      const revoked = (await entriesOf(email)).filter((e) => e.payload.action === "token_revoked");
      expect(revoked.map((e) => [e.payload.log_type, e.payload.traits])).toEqual([
        ["token", { reason: "refresh_token_reused", session_id: sessionId }],
      ]);
    });

    it("records password and email changes and a factor enrolled, verified (also wrongly) and removed", async () => {
      const { email, supabase } = await confirmedUser("audit-changes");
      expect(
        (
          await supabase.auth.updateUser({
            password: "Another-Password-7",
            current_password: PASSWORD,
          } as never)
        ).error,
      ).toBeNull();
      const next = uniqueEmail("audit-changed");
      expect((await supabase.auth.updateUser({ email: next })).error).toBeNull();
      await emailTo(next, "Confirm your new Revwise email address");

      const enrolled = await supabase.auth.mfa.enroll({
        factorType: "totp",
        friendlyName: "Phone",
      });
      const { id: factorId, totp } = enrolled.data as { id: string; totp: { secret: string } };
      const challenge = (await supabase.auth.mfa.challenge({ factorId })).data!;
      expect(
        (await supabase.auth.mfa.verify({ factorId, challengeId: challenge.id, code: "000000" }))
          .error,
      ).not.toBeNull();
      expect(
        (
          await supabase.auth.mfa.verify({
            factorId,
            challengeId: challenge.id,
            code: totpCode(totp.secret, stepAt(Date.now())),
          })
        ).error,
      ).toBeNull();
      expect((await supabase.auth.mfa.unenroll({ factorId })).error).toBeNull();

      const after = (await actions(email)).slice(4); // after the sign-up, its confirmation and two sign-ins
      expect(after.map(([action]) => action)).toEqual([
        "user_updated_password",
        "user_modified",
        "factor_in_progress",
        "verification_attempted",
        "verification_attempted",
        "factor_unenrolled",
      ]);
      expect(after[1]![1]).toEqual({ fields: ["email"] });
      expect(after[2]![1]).toEqual({ factor_id: factorId, factor_type: "totp" });
      expect([after[3]![1], after[4]![1]]).toMatchObject([
        { factor_id: factorId, challenge_id: challenge.id, verified: false },
        { factor_id: factorId, challenge_id: challenge.id, verified: true },
      ]);
      expect(after[5]![1]).toMatchObject({ factor_id: factorId, factor_status: "verified" });
    });

    it("records the admin's actions as the service role, and a team role given and taken away", async () => {
      const admin = server.admin().auth.admin;
      const email = uniqueEmail("audit-admin");
      const created = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
      const id = created.data.user!.id;
      await admin.updateUserById(id, { app_metadata: { team_role: "member" } });
      await admin.updateUserById(id, { app_metadata: { team_role: "admin" } });
      await admin.updateUserById(id, { app_metadata: { team_role: null } });
      await admin.deleteUser(id);
      const res = await asAdmin(`/admin/audit?per_page=1000&query=author:service_role`);
      const mine = ((await res.json()) as Entry[])
        .filter((e) => e.payload.traits?.user_id === id)
        .reverse();
      expect(mine.every((e) => e.payload.actor_username === "service_role")).toBe(true);
      const target = { user_id: id, user_email: email, user_phone: "" };
      const modified = ["user_modified", "user", target];
      expect(mine.map((e) => [e.payload.action, e.payload.log_type, e.payload.traits])).toEqual([
        ["user_signedup", "team", { ...target, provider: "admin" }],
        modified,
        ["team_role_granted", "workspace", { ...target, role: "member" }],
        modified,
        ["team_role_granted", "workspace", { ...target, role: "admin" }],
        modified,
        ["team_role_removed", "workspace", { ...target, role: "admin" }],
        ["user_deleted", "team", { ...target, soft_delete: false }],
      ]);
    });

    it("records an identity unlinked", async () => {
      const admin = server.admin().auth.admin;
      const email = uniqueEmail("audit-unlink");
      const number = `1555${String(Date.now()).slice(-7)}`;
      await admin.createUser({
        email,
        password: PASSWORD,
        email_confirm: true,
        phone: `+${number}`,
        phone_confirm: true,
      });
      const supabase = client();
      await supabase.auth.signInWithPassword({ email, password: PASSWORD });
      const identities = (await supabase.auth.getUserIdentities()).data!.identities;
      const phone = identities.find((i) => i.provider === "phone")!;
      expect((await supabase.auth.unlinkIdentity(phone)).error).toBeNull();
      // A user with a number is named by it (GoTrue's actor_username).
      const unlinked = (await entriesOf(number)).filter(
        (e) => e.payload.action === "identity_unlinked",
      );
      expect(unlinked.map((e) => e.payload.traits)).toEqual([
        { identity_id: phone.identity_id, provider: "phone" },
      ]);
    });

    it("GET /admin/audit filters by author, action and type, pages with GoTrue's headers, and refuses others in GoTrue's shape", async () => {
      const { email, session } = await confirmedUser("audit-listing");
      for (let i = 0; i < 3; i++)
        await auth("/token?grant_type=password", {
          method: "POST",
          body: JSON.stringify({ email, password: "Wrong-Password-1" }),
        });
      const author = encodeURIComponent(email);
      const page = await asAdmin(`/admin/audit?query=author:${author}&per_page=2&page=2`);
      expect(page.status).toBe(200);
      expect(page.headers.get("x-total-count")).toBe("7");
      expect(page.headers.get("link")).toBe(
        `</auth/v1/admin/audit?page=3&per_page=2&query=author%3A${author}>; rel="next", ` +
          `</auth/v1/admin/audit?page=4&per_page=2&query=author%3A${author}>; rel="last"`,
      );
      const rows = (await page.json()) as Entry[];
      expect(rows.map((e) => e.payload.action)).toEqual(["login_failed", "login"]);
      expect(Object.keys(rows[0]!).sort()).toEqual(["created_at", "id", "ip_address", "payload"]);

      // Part of the text, in any case; the action and the log type are filters too.
      const partly = await asAdmin(
        `/admin/audit?query=author:${encodeURIComponent(email.toUpperCase().slice(0, -4))}&per_page=100`,
      );
      expect(((await partly.json()) as Entry[]).length).toBeGreaterThanOrEqual(7);
      const failed = (await (
        await asAdmin(`/admin/audit?query=action:LOGIN_FAIL&per_page=1000`)
      ).json()) as Entry[];
      expect(failed.length).toBeGreaterThanOrEqual(3);
      expect(failed.every((e) => e.payload.action === "login_failed")).toBe(true);
      const tokens = (await (
        await asAdmin(`/admin/audit?query=type:account&per_page=5`)
      ).json()) as Entry[];
      expect(tokens.every((e) => e.payload.log_type === "account")).toBe(true);
      // A % or _ in the text is itself, not a wildcard.
      const none = await asAdmin(`/admin/audit?query=action:%25`);
      expect([none.headers.get("x-total-count"), await none.json()]).toEqual(["0", []]);

      // Bad parameters: GoTrue's 400s, nothing read.
      for (const [query, message] of [
        ["query=who:x", "Invalid query scope: who:x"],
        ["query=author", "Invalid query scope: author"],
        ["page=-1", 'Bad Pagination Parameters: strconv.ParseUint: parsing "-1": invalid syntax'],
      ]) {
        const res = await asAdmin(`/admin/audit?${query}`);
        expect([res.status, await res.json()]).toEqual([
          400,
          { code: "validation_failed", error_code: "validation_failed", msg: message, message },
        ]);
      }

      // Only the service-role key reads it: no key, the anon key or a user's token are refused.
      for (const [headers, status, code] of [
        [{}, 401, "no_authorization"],
        [{ authorization: `Bearer ${server.anonKey}` }, 403, "not_admin"],
        [{ authorization: `Bearer ${session.access_token}` }, 403, "not_admin"],
      ] as const) {
        const res = await auth("/admin/audit", { headers });
        expect([res.status, ((await res.json()) as { error_code: string }).error_code]).toEqual([
          status,
          code,
        ]);
      }
    });
  },
  {
    DEV_MAILBOX: "true",
    GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
    GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: "true",
  },
);
