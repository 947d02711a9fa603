// Backups of the embedded database with `npm run backup` and `npm run restore`, run as an operator
// runs them, against the built server: a copy made under a continuous insert load holds every row
// acknowledged before it started while inserts keep being acknowledged; restored into an empty
// folder it opens and serves (its signing secret with it: a member's authenticator app still
// works); a stopped folder is copied too; and what is not a whole backup, or a folder that is not
// empty, is refused with one line and nothing changed.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadKeys } from "../../server/security/keys.ts";
import { tempDir } from "../support/app.ts";
import { PASSWORD, uniqueEmail } from "../support/auth.ts";
import { insertLoad } from "../support/insert-load.ts";
import { httpRequest } from "../support/raw-http.ts";
import { startServer, type RunningServer } from "../support/server-process.ts";
import { stepAt, totpCode } from "../support/totp.ts";

type Run = { code: number | null; stdout: string; stderr: string };

/** `npm run backup|restore -- FILE` in an environment of its own (DATA_DIR and what is given). */
function run(
  command: "backup" | "restore",
  file: string,
  env: Record<string, string>,
): Promise<Run> {
  const child = spawn(process.execPath, [`scripts/${command}.ts`, file], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d));
  child.stderr.on("data", (d: Buffer) => (stderr += d));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

/** A refusal: exit code 1 and one line on stderr, which says `why`; no stack. */
function expectRefused(answer: Run, why: RegExp) {
  expect(answer.code).toBe(1);
  expect(answer.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(why)]);
  expect(answer.stdout).toBe("");
}

const listing = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : undefined);

const client = (server: RunningServer): SupabaseClient =>
  createClient(server.url, server.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  });

/** Every subscriber's email, read through the server by a member at aal2 (pages of 1000). */
async function subscribersSeenBy(member: SupabaseClient): Promise<Set<string>> {
  const emails = new Set<string>();
  for (let from = 0; ; from += 1000) {
    const { data, error } = await member
      .from("subscribers")
      .select("email")
      .order("email")
      .range(from, from + 999);
    expect(error).toBeNull();
    for (const row of data as { email: string }[]) emails.add(row.email);
    if (data!.length < 1000) return emails;
  }
}

describe("npm run backup and npm run restore", () => {
  const siteDir = path.join(tempDir(), "no-site");
  const envOf = (dataDir: string) => ({
    DATA_DIR: dataDir,
    SITE_DIR: siteDir,
    TRUST_PROXY: "loopback",
  });
  const original = tempDir();
  const backups = tempDir("revwise-backups-");
  const runningCopy = path.join(backups, "running.rwb");
  let server: RunningServer | undefined;
  let restored: RunningServer | undefined;
  /** Every email acknowledged by the original server, until it stopped. */
  const acknowledged: string[] = [];
  let member: { email: string; secret: string; step: number };

  beforeAll(async () => {
    server = await startServer(envOf(original));
    // A team member with an authenticator app: its secret is sealed in the database under a key
    // derived from DATA_DIR's generated secret, so it works after a restore only if that came too.
    const keys = await loadKeys({ jwtSecret: undefined, dataDir: original });
    const admin = createClient(server.url, keys.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const email = uniqueEmail("backup-member");
    const created = await admin.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      app_metadata: { team_role: "member" },
    });
    expect(created.error).toBeNull();
    const supabase = client(server);
    expect(
      (await supabase.auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toBeNull();
    const { data } = await supabase.auth.mfa.enroll({ factorType: "totp" });
    const factor = data as { id: string; totp: { secret: string } };
    const step = stepAt(Date.now());
    const verified = await supabase.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: totpCode(factor.totp.secret, step),
    });
    expect(verified.error).toBeNull();
    member = { email, secret: factor.totp.secret, step };
  });

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await restored?.stop("SIGKILL");
  });

  it("copies a running server under insert load, which keeps acknowledging them", async () => {
    const load = insertLoad([server!.url], server!.anonKey, { tag: "backup", max: 1_000_000 });
    while (load.acknowledged.length < 200) {
      if (server!.child.exitCode !== null) throw new Error("server exited under load");
      await new Promise((r) => setTimeout(r, 20));
    }
    // One more insert at a time beside the load, timed: the slowest for two seconds before the
    // backup, and while it runs (how long an insert waits for the copy).
    const probing: { phase: "before" | "during" | "done" } = { phase: "before" };
    const slowestMs = { before: 0, during: 0 };
    const probe = (async () => {
      for (let i = 0; probing.phase !== "done"; i++) {
        const at = probing.phase;
        const started = performance.now();
        const res = await httpRequest(`${server!.url}/rest/v1/newsletter_subscribers`, {
          method: "POST",
          headers: {
            apikey: server!.anonKey,
            "content-type": "application/json",
            "x-forwarded-for": `10.200.${(i >> 8) & 255}.${i & 255}`,
          },
          body: JSON.stringify({ email: `probe-${i}@revwise.example` }),
        });
        expect(res.status).toBe(201);
        acknowledged.push(`probe-${i}@revwise.example`);
        slowestMs[at] = Math.max(slowestMs[at], performance.now() - started);
      }
    })();
    await new Promise((r) => setTimeout(r, 2000));
    const before = [...load.acknowledged];
    probing.phase = "during";
    const started = performance.now();
    const answer = await run("backup", runningCopy, envOf(original));
    const tookMs = performance.now() - started;
    probing.phase = "done";
    await probe;
    const during = load.acknowledged.length - before.length;
    await load.stop();
    acknowledged.push(...load.acknowledged);

    expect(answer.stderr).toBe("");
    expect(answer.code).toBe(0);
    expect(answer.stdout.trimEnd().split("\n")).toEqual([
      expect.stringMatching(
        /^\/.*running\.rwb: a backup of .* \(.* MB, from the running server\)$/,
      ),
    ]);
    expect(fs.statSync(runningCopy).mode & 0o777).toBe(0o600);
    // Inserts went on being acknowledged while the copy was made, and none failed.
    expect(during).toBeGreaterThan(0);
    expect(load.statuses.filter((s) => s !== 201)).toEqual([]);
    console.info(
      `backup of a running server: ${Math.round(tookMs)} ms, ${(fs.statSync(runningCopy).size / 1e6).toFixed(1)} MB; ${during} inserts acknowledged meanwhile; the slowest single insert beside the load took ${Math.round(slowestMs.during)} ms (${Math.round(slowestMs.before)} ms in the two seconds before)`,
    );

    // Restored into a folder that does not exist yet.
    const restoredDir = path.join(tempDir(), "restored");
    const restore = await run("restore", runningCopy, envOf(restoredDir));
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/restored from .*running\.rwb, a backup as of /);
    expect(await server!.stop("SIGTERM")).toBe(0);
    server = undefined;

    // The copy opens and serves: same keys (its secret came with it), a member signs in with the
    // password and the same authenticator app, reads every row acknowledged before the backup,
    // and new sign-ups are stored.
    restored = await startServer(envOf(restoredDir));
    const supabase = client(restored);
    expect(
      (await supabase.auth.signInWithPassword({ email: member.email, password: PASSWORD })).error,
    ).toBeNull();
    const factors = await supabase.auth.mfa.listFactors();
    const verified = await supabase.auth.mfa.challengeAndVerify({
      factorId: factors.data!.totp[0]!.id,
      code: totpCode(member.secret, Math.max(member.step, stepAt(Date.now())) + 1),
    });
    expect(verified.error).toBeNull();
    const stored = await subscribersSeenBy(supabase);
    expect(before.filter((e) => !stored.has(e))).toEqual([]);
    const after = insertLoad([restored.url], restored.anonKey, {
      tag: "restored",
      max: 5,
      workers: 1,
    });
    await after.done;
    expect(after.statuses).toEqual([201, 201, 201, 201, 201]);
    expect(await restored.stop("SIGTERM")).toBe(0);
    restored = undefined;
  });

  it("copies a stopped data folder, with every row acknowledged before it stopped", async () => {
    const stoppedCopy = path.join(backups, "stopped.rwb");
    const answer = await run("backup", stoppedCopy, envOf(original));
    expect(answer.stderr).toBe("");
    expect(answer.stdout).toMatch(/\(.* MB, from the stopped data folder\)\n$/);

    const restoredDir = tempDir();
    expect((await run("restore", stoppedCopy, envOf(restoredDir))).code).toBe(0);
    restored = await startServer(envOf(restoredDir));
    const supabase = client(restored);
    await supabase.auth.signInWithPassword({ email: member.email, password: PASSWORD });
    const factors = await supabase.auth.mfa.listFactors();
    const verified = await supabase.auth.mfa.challengeAndVerify({
      factorId: factors.data!.totp[0]!.id,
      code: totpCode(member.secret, stepAt(Date.now()) + 1),
    });
    expect(verified.error).toBeNull();
    const stored = await subscribersSeenBy(supabase);
    expect(acknowledged.filter((e) => !stored.has(e))).toEqual([]);
    expect(await restored.stop("SIGTERM")).toBe(0);
    restored = undefined;
  });

  it("refuses a file cut short, a foreign file and a folder that is not empty, changing nothing", async () => {
    const whole = fs.readFileSync(runningCopy);
    const cut = path.join(backups, "cut.rwb");
    const empty = path.join(tempDir(), "never-made");

    for (const length of [whole.length - 1, Math.floor(whole.length / 2), 40, 10]) {
      fs.writeFileSync(cut, whole.subarray(0, length));
      expectRefused(await run("restore", cut, envOf(empty)), /cut\.rwb is cut short/);
      expect(listing(empty)).toBeUndefined();
    }
    const damaged = Buffer.from(whole);
    damaged[damaged.length - 100]! ^= 0xff;
    fs.writeFileSync(cut, damaged);
    expectRefused(
      await run("restore", cut, envOf(empty)),
      /cut\.rwb is damaged: its checksum does not match/,
    );

    const foreign = path.join(backups, "foreign.tar.gz");
    const template = fs
      .readdirSync("node_modules/.cache/revwise")
      .find((f) => f.endsWith(".tar.gz"));
    fs.copyFileSync(path.join("node_modules/.cache/revwise", template!), foreign);
    expectRefused(
      await run("restore", foreign, envOf(empty)),
      /foreign\.tar\.gz is not a Revwise backup/,
    );
    fs.writeFileSync(foreign, "");
    expectRefused(await run("restore", foreign, envOf(empty)), /foreign\.tar\.gz is empty/);
    expect(listing(empty)).toBeUndefined();

    const before = listing(original);
    expectRefused(
      await run("restore", runningCopy, envOf(original)),
      /^DATA_DIR .* is not empty \(it holds .*\): restore only into an empty folder$/,
    );
    expect(listing(original)).toEqual(before);
  });

  it("leaves PostgreSQL to its own tools", async () => {
    const env = { ...envOf(original), DATABASE_URL: "postgres://revwise@127.0.0.1:1/revwise" };
    for (const command of ["backup", "restore"] as const)
      expectRefused(
        await run(command, path.join(backups, "pg.rwb"), env),
        /^DATABASE_URL is set: .*pg_dump and pg_restore, or pg_basebackup/,
      );
    expect(fs.existsSync(path.join(backups, "pg.rwb"))).toBe(false);
  });
});
