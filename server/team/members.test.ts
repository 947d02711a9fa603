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
import { PASSWORD, uniqueEmail } from "../../tests/support/auth.ts";
import { startServer } from "../../tests/support/server-process.ts";
import { raiseToAal2 } from "../../tests/support/team.ts";
import { addMember, listMembers, removeMember, resetFactors } from "./members.ts";

const run = promisify(execFile);

describeAuthSuite("team members", ({ server, client, confirmedUser, emailTo }) => {
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
        { email: newcomer, role: "member" },
        { email, role: "admin" },
      ]),
    );

    expect((await removeMember(api(), email))?.kind).toBe("updated");
    expect((await removeMember(api(), email))?.kind).toBe("unchanged");
    expect(await removeMember(api(), uniqueEmail("team-nobody"))).toBeUndefined();
    expect((await listMembers(api())).map((m) => m.email)).not.toContain(email);
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
      expect(listed.stdout).toBe("admin  lead@revwise.example\n");
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
}, 60_000);
