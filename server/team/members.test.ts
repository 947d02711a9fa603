// The team through the admin API: adding an address without an account invites it by email,
// adding an account sets its role, removing takes the role away and keeps the account; and the
// `npm run team` command does the same through a running server, or through one of its own when
// none answers.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../tests/support/auth-suite.ts";
import { followLink, linkIn, PASSWORD, uniqueEmail } from "../../tests/support/auth.ts";
import { startServer } from "../../tests/support/server-process.ts";
import { raiseToAal2, teamMember } from "../../tests/support/team.ts";
import { addMember, listMembers, removeMember, resetFactors } from "./members.ts";

const run = promisify(execFile);

describeAuthSuite("team members", (suite) => {
  const { server, client, confirmedUser, emailTo, emailChangeMails, ctx } = suite;
  const api = () => ({ url: server.url, serviceRoleKey: server.serviceRoleKey });

  it("invites new addresses, sets and removes roles, and lists the team", async () => {
    const newcomer = uniqueEmail("team-new");
    const added = await addMember(api(), newcomer.toUpperCase(), "member");
    expect(added.kind).toBe("invited");
    expect(added.user.app_metadata.team_role).toBe("member");
    await emailTo(newcomer, "You are invited to Revwise");

    const { email } = await confirmedUser("team-existing");
    expect((await addMember(api(), email, "admin")).kind).toBe("updated");
    expect((await addMember(api(), email, "admin")).kind).toBe("unchanged");
    expect(await listMembers(api())).toEqual(
      expect.arrayContaining([
        { email: newcomer, role: "member", confirmed: false },
        { email, role: "admin", confirmed: true },
      ]),
    );

    expect((await removeMember(api(), email))?.kind).toBe("updated");
    expect((await removeMember(api(), email))?.kind).toBe("unchanged");
    expect(await removeMember(api(), uniqueEmail("team-nobody"))).toBeUndefined();
    expect((await listMembers(api())).map((m) => m.email)).not.toContain(email);
  });

  it("invites an address whose account is unconfirmed, voiding the squatter's password", async () => {
    // Somebody signed up with a future member's address and a password of their own.
    const email = uniqueEmail("team-squatted");
    const squatter = client();
    await squatter.auth.signUp({ email, password: "Squatters-Own-77" });
    const added = await addMember(api(), email, "member");
    expect(added.kind).toBe("invited");
    const { fragment } = await followLink(
      linkIn(await emailTo(email, "You are invited to Revwise")),
    );
    expect(fragment.get("access_token")).toBeTruthy();
    const signIn = await client().auth.signInWithPassword({ email, password: "Squatters-Own-77" });
    expect(signIn.error).toMatchObject({ code: "invalid_credentials" });
    expect(await listMembers(api())).toContainEqual({ email, role: "member", confirmed: true });
  });

  it("lets a role apply to a confirmed account only", async () => {
    const member = await teamMember(suite, "team-unconfirmed-role", { aal2: true });
    expect((await member.supabase.from("leads").select().limit(1)).error).toBeNull();
    // The same account and session, its address not (or no longer) confirmed: it reads nothing.
    await ctx.db.query("UPDATE auth.users SET email_confirmed_at = NULL WHERE id = $1", [
      member.id,
    ]);
    expect((await member.supabase.from("leads").select().limit(1)).error).toMatchObject({
      code: "42501",
    });
  });

  it("removes a member by an address they used before, and their access ends at once", async () => {
    const member = await teamMember(suite, "team-moved", { aal2: true });
    const moved = uniqueEmail("team-moved-new");
    expect((await member.supabase.auth.updateUser({ email: moved })).error).toBeNull();
    const { toNew, toCurrent } = await emailChangeMails(member.email, moved);
    await followLink(linkIn(toCurrent));
    await followLink(linkIn(toNew));
    expect((await listMembers(api())).map((m) => m.email)).toContain(moved);
    expect((await member.supabase.from("leads").select().limit(1)).error).toBeNull();

    const removal = await removeMember(api(), member.email);
    expect(removal).toMatchObject({ kind: "updated", formerly: member.email });
    expect(removal?.user.email).toBe(moved);
    expect((await member.supabase.from("leads").select().limit(1)).error).toMatchObject({
      code: "42501",
    });
    expect((await listMembers(api())).map((m) => m.email)).not.toContain(moved);
    expect((await removeMember(api(), member.email))?.kind).toBe("unchanged");
  });

  it("resets a member's second factor: factors and recovery codes go, sessions end", async () => {
    const { email, supabase } = await confirmedUser("team-lost-phone");
    await addMember(api(), email, "member");
    await raiseToAal2(supabase);
    expect(await resetFactors(api(), email)).toEqual({ factors: 1 });
    expect((await supabase.auth.getUser()).data.user).toBeNull();
    const again = client();
    await again.auth.signInWithPassword({ email, password: PASSWORD });
    expect((await again.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: "aal1",
      nextLevel: "aal1",
    });
    expect(await resetFactors(api(), uniqueEmail("team-nobody"))).toBeUndefined();
  });
});

it("npm run team works without a server, and through a running one", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "revwise-team-"));
  const team = (port: string, ...args: string[]) =>
    run(process.execPath, ["scripts/team.ts", ...args], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: port, LOG_LEVEL: "error" },
    });
  try {
    // No server: the command starts one of its own on the embedded database.
    const alone = await team("1", "add", "lead@revwise.example", "--admin");
    expect(alone.stdout).toContain("lead@revwise.example was invited by email");

    // A running server holds the embedded database: the command must go through it.
    const server = await startServer({ DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "none") });
    try {
      const listed = await team(String(server.port), "list");
      // Invited, not confirmed yet: on the team, without access until the invitation is used.
      expect(listed.stdout).toBe(
        "admin  lead@revwise.example (invited: no access until they accept)\n",
      );
      const reset = await team(String(server.port), "reset-mfa", "lead@revwise.example");
      expect(reset.stdout).toContain(
        "lead@revwise.example: 0 second factor(s) and every recovery code removed",
      );
      const removed = await team(String(server.port), "remove", "lead@revwise.example");
      expect(removed.stdout).toContain("is no longer on the team");
    } finally {
      await server.stop();
    }
    await expect(team("1", "promote", "x")).rejects.toMatchObject({ code: 2 });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);

describeAuthSuite(
  "team members with MAILER_AUTOCONFIRM=true",
  (suite) => {
    const { server, client, emailTo } = suite;
    const api = () => ({ url: server.url, serviceRoleKey: server.serviceRoleKey });

    it("invites an address confirmed as given: no role applies before the invitation is used", async () => {
      // The squatter signed up first (confirmed at once) and even reached aal2.
      const email = uniqueEmail("team-autoconfirmed");
      const squatter = client();
      await squatter.auth.signUp({ email, password: "Squatters-Own-77" });
      await raiseToAal2(squatter);
      expect((await addMember(api(), email, "member")).kind).toBe("invited");
      expect((await squatter.from("leads").select().limit(1)).error).toMatchObject({
        code: "42501",
      });
      const { fragment } = await followLink(
        linkIn(await emailTo(email, "You are invited to Revwise")),
      );
      expect(fragment.get("access_token")).toBeTruthy();
      const signIn = await client().auth.signInWithPassword({
        email,
        password: "Squatters-Own-77",
      });
      expect(signIn.error).toMatchObject({ code: "invalid_credentials" });
      // A proven member is added without an invitation.
      const again = await addMember(api(), email, "admin");
      expect(again.kind).toBe("updated");
    });
  },
  { MAILER_AUTOCONFIRM: "true" },
);
