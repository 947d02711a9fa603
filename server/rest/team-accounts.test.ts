// The team managed in the workspace (`team_accounts`): admins on aal2 invite people (an email that
// says who invited them, as what and why, whose link works for 7 days), see the team, change
// roles, take members off the team and reset a member's second factor; every change is in the
// audit log under the admin who made it. Members, admins without their second factor and
// visitors are refused, and so is a change that would leave the team without an admin.
import type { SupabaseClient } from "@supabase/supabase-js";
import { beforeAll, expect, it } from "vitest";
import { describeAuthSuite } from "../../tests/support/auth-suite.ts";
import { followLink, linkIn, uniqueEmail } from "../../tests/support/auth.ts";
import { teamMember } from "../../tests/support/team.ts";

type MemberRow = {
  id: string;
  email: string;
  role: string;
  active: boolean;
  invited_by: string | null;
  invite_note: string | null;
  invite_expires_at: string | null;
  two_step: boolean;
};

describeAuthSuite("rest: the team managed in the workspace", (suite) => {
  const { server, client, confirmedUser, emailTo, ctx } = suite;
  let admin: SupabaseClient;
  let adminId: string;
  let adminEmail: string;

  beforeAll(async () => {
    ({
      supabase: admin,
      id: adminId,
      email: adminEmail,
    } = await teamMember(suite, "team-ws-admin", { aal2: true, role: "admin" }));
  });

  async function team(): Promise<MemberRow[]> {
    const { data, error } = await admin.from("team_accounts").select("*").order("email");
    expect(error).toBeNull();
    return data as MemberRow[];
  }
  const memberOf = async (email: string) => (await team()).find((m) => m.email === email);

  /** The audit entries about `email`, oldest first: action, actor, and the traits named. */
  async function entriesAbout(email: string) {
    const rows = await ctx.db.query<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM auth.audit_log_entries
       WHERE payload->'traits'->>'user_email' = $1 ORDER BY created_at, seq`,
      [email],
    );
    return rows.map(({ payload }) => ({
      action: payload.action,
      actor: payload.actor_username,
      role: (payload.traits as Record<string, unknown>).role,
    }));
  }

  it("invites an address with a note: the email says who and why and works for 7 days", async () => {
    const email = uniqueEmail("team-ws-invited");
    const note = "You'll follow up the Request Demo leads from the West Coast.";
    const { error, status } = await admin
      .from("team_accounts")
      .insert({ email: email.toUpperCase(), role: "member", note });
    expect([error, status]).toEqual([null, 201]);

    const mail = await emailTo(email, `${adminEmail} invited you to the Revwise team workspace`);
    expect(mail.text).toContain(`${adminEmail} invited you to the team workspace`);
    expect(mail.text).toContain("as a member");
    expect(mail.text).toContain(`Their note: “${note}”`);
    expect(mail.text).toContain("valid for 7 days");
    const invited = await memberOf(email);
    expect(invited).toMatchObject({
      role: "member",
      active: false,
      invited_by: adminEmail,
      invite_note: note,
      two_step: false,
    });
    const days = (Date.parse(invited!.invite_expires_at!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    // Accepting it proves the address: the member is on the team, the invitation used up.
    const { fragment } = await followLink(linkIn(mail));
    expect(fragment.get("access_token")).toBeTruthy();
    expect(await memberOf(email)).toMatchObject({ active: true, invite_expires_at: null });
    expect(await entriesAbout(email)).toEqual([
      { action: "user_invited", actor: adminEmail, role: "member" },
      { action: "team_role_granted", actor: adminEmail, role: "member" },
    ]);

    // Asked again, the address is on the team already: PostgREST's unique violation.
    const again = await admin.from("team_accounts").insert({ email, role: "admin" });
    expect(again).toMatchObject({ status: 409, error: { code: "23505" } });
  });

  it("adds an account whose address is proven at once, and tells its owner who did and why", async () => {
    const { email } = await confirmedUser("team-ws-existing");
    const { error } = await admin
      .from("team_accounts")
      .insert({ email, role: "admin", note: "Backing me up on webhooks." });
    expect(error).toBeNull();
    const mail = await emailTo(email, `${adminEmail} added you to the Revwise team workspace`);
    expect(mail.text).toContain("as an admin");
    expect(mail.text).toContain("Backing me up on webhooks.");
    expect(mail.text).toContain(`${server.url}/team`);
    expect(await memberOf(email)).toMatchObject({ role: "admin", active: true });
    expect(await entriesAbout(email)).toEqual([
      { action: "team_role_granted", actor: adminEmail, role: "admin" },
    ]);
  });

  it("changes a role and takes a member off the team, the account kept and the invitation void", async () => {
    const { email, session } = await confirmedUser("team-ws-role");
    const { id } = session.user;
    expect((await admin.from("team_accounts").insert({ email, role: "member" })).error).toBeNull();
    const promoted = await admin.from("team_accounts").update({ role: "admin" }).eq("id", id);
    expect([promoted.error, promoted.status]).toEqual([null, 204]);
    expect((await memberOf(email))?.role).toBe("admin");
    const removed = await admin.from("team_accounts").delete().eq("id", id);
    expect([removed.error, removed.status]).toEqual([null, 204]);
    expect(await memberOf(email)).toBeUndefined();
    expect(await entriesAbout(email)).toEqual([
      { action: "team_role_granted", actor: adminEmail, role: "member" },
      { action: "team_role_granted", actor: adminEmail, role: "admin" },
      { action: "team_role_removed", actor: adminEmail, role: "admin" },
    ]);
    const [account] = await ctx.db.query("SELECT 1 FROM auth.users WHERE id = $1", [id]);
    expect(account).toBeDefined();

    // An invitation taken back stops working.
    const pending = uniqueEmail("team-ws-withdrawn");
    await admin.from("team_accounts").insert({ email: pending, role: "member" });
    const mail = await emailTo(pending, /invited you to the Revwise team workspace/);
    const row = await memberOf(pending);
    await admin.from("team_accounts").delete().eq("id", row!.id);
    const { fragment } = await followLink(linkIn(mail));
    expect(fragment.get("error_code")).toBe("otp_expired");
  });

  it("resets a member's second factor: factors gone, signed out everywhere, logged", async () => {
    const member = await teamMember(suite, "team-ws-lost-phone", { aal2: true });
    expect((await memberOf(member.email))?.two_step).toBe(true);
    const { data, error } = await admin.rpc("reset_member_factors", { user_id: member.id });
    expect([data, error]).toEqual([true, null]);
    expect((await memberOf(member.email))?.two_step).toBe(false);
    const { data: factors } = await server.admin().auth.admin.mfa.listFactors({
      userId: member.id,
    });
    expect(factors?.factors).toEqual([]);
    // The member's session ended: their token no longer reads the leads.
    const refused = await member.supabase.from("leads").select("id").limit(1);
    expect(refused.error).not.toBeNull();
    expect(await entriesAbout(member.email)).toContainEqual({
      action: "factor_deleted",
      actor: adminEmail,
      role: undefined,
    });
    // Someone not on the team is nobody the workspace resets.
    const outsider = await confirmedUser("team-ws-outsider");
    expect(
      (await admin.rpc("reset_member_factors", { user_id: outsider.session.user.id })).data,
    ).toBe(false);
  });

  it("refuses members, admins without their second factor and visitors, changing nothing", async () => {
    const email = uniqueEmail("team-ws-refused");
    const member = await teamMember(suite, "team-ws-plain", { aal2: true });
    const aal1Admin = await teamMember(suite, "team-ws-aal1", { aal2: false, role: "admin" });
    for (const [who, status] of [
      [member.supabase, 403],
      [aal1Admin.supabase, 403],
      [client(), 401],
    ] as const) {
      expect((await who.from("team_accounts").insert({ email, role: "admin" })).status).toBe(
        status,
      );
      expect((await who.from("team_accounts").select("*")).status).toBe(status);
      expect((await who.from("team_accounts").delete().eq("id", adminId)).status).toBe(status);
      expect((await who.rpc("reset_member_factors", { user_id: adminId })).status).toBe(status);
    }
    expect(await memberOf(email)).toBeUndefined();
    expect((await memberOf(adminEmail))?.two_step).toBe(true);
  });

  it("refuses what the table does not take, in PostgREST's words", async () => {
    const bad = await admin
      .from("team_accounts")
      .insert({ email: "not an address", role: "member" });
    expect(bad).toMatchObject({
      status: 400,
      error: { code: "23514", details: "Please enter a valid email address" },
    });
    const role = await admin
      .from("team_accounts")
      .insert({ email: uniqueEmail("r"), role: "owner" });
    expect(role).toMatchObject({ status: 400, error: { code: "23514" } });
    const note = await admin
      .from("team_accounts")
      .insert({ email: uniqueEmail("n"), role: "member", note: "x".repeat(501) });
    expect(note).toMatchObject({ status: 400, error: { code: "23514" } });
    const column = await admin
      .from("team_accounts")
      .insert({ email: uniqueEmail("c"), role: "member", team_role: "admin" });
    expect(column).toMatchObject({ status: 400, error: { code: "PGRST204" } });
    const everyone = await admin.from("team_accounts").delete().neq("role", "admin");
    expect(everyone).toMatchObject({ status: 400, error: { code: "21000" } });
  });

  it("keeps an admin on the team: the last one can neither step down nor leave", async () => {
    await ctx.db.query(
      `UPDATE auth.users SET raw_app_meta_data = raw_app_meta_data - 'team_role'
       WHERE id <> $1 AND raw_app_meta_data->>'team_role' = 'admin'`,
      [adminId],
    );
    for (const change of [
      admin.from("team_accounts").update({ role: "member" }).eq("id", adminId),
      admin.from("team_accounts").delete().eq("id", adminId),
    ])
      expect(await change).toMatchObject({ status: 400, error: { code: "P0001" } });
    expect((await memberOf(adminEmail))?.role).toBe("admin");
  });
});
