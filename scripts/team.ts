// `npm run team -- add EMAIL [--admin]`, `npm run team -- remove EMAIL`, `npm run team -- list`:
// who is on the team (the people who work with the leads in the workspace);
// `npm run team -- reset-mfa EMAIL`: a member who lost their phone sets a second factor up anew. It speaks the admin
// API of the server this environment configures (DATA_DIR or DATABASE_URL, PORT): the running one
// when it answers, else one started in this process for the command (the embedded database
// admits one server at a time). An invitation is queued like every email: the server sends it.
import { loadConfig } from "../server/config.ts";
import {
  addMember,
  listMembers,
  removeMember,
  resetFactors,
  type AdminApi,
} from "../server/team/members.ts";
import { loadKeys } from "../server/security/keys.ts";

const USAGE = "usage: npm run team -- add EMAIL [--admin] | remove EMAIL | reset-mfa EMAIL | list";

const [command, email, ...flags] = process.argv.slice(2);
if (
  !(command === "list" && email === undefined) &&
  !((command === "remove" || command === "reset-mfa") && email && flags.length === 0) &&
  !(command === "add" && email && flags.every((f) => f === "--admin"))
) {
  console.error(USAGE);
  process.exit(2);
}

const config = loadConfig({ NODE_ENV: "development", LOG_LEVEL: "warn", ...process.env });
const keys = await loadKeys({ jwtSecret: config.jwtSecret, dataDir: config.dataDir });
const running = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}`;

/** The running server, when one answers here; else one in this process until the command ends. */
async function adminApi(): Promise<{ api: AdminApi; close(): Promise<void> }> {
  const answers = await fetch(`${running}/auth/v1/health`, { signal: AbortSignal.timeout(1500) })
    .then((r) => r.ok)
    .catch(() => false);
  if (answers)
    return { api: { url: running, serviceRoleKey: keys.serviceRoleKey }, close: async () => {} };
  const { buildApp } = await import("../server/app.ts");
  const app = await buildApp({ config: { ...config, logLevel: "error" }, keys, site: null });
  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  return { api: { url, serviceRoleKey: keys.serviceRoleKey }, close: () => app.close() };
}

const { api, close } = await adminApi();
try {
  if (command === "list") {
    const members = await listMembers(api);
    for (const m of members)
      console.log(
        `${m.role.padEnd(6)} ${m.email}${m.confirmed ? "" : " (invited: no access until they accept)"}`,
      );
    if (members.length === 0) console.log("Nobody is on the team yet.");
  } else if (command === "add") {
    const role = flags.includes("--admin") ? "admin" : "member";
    const change = await addMember(api, email!, role, `${config.siteUrl}/team`);
    console.log(
      {
        invited: `${email} was invited by email and is on the team as ${role} once they accept (their access starts then).`,
        updated: `${email} is on the team as ${role}.`,
        unchanged: `${email} was already on the team as ${role}.`,
      }[change.kind],
    );
  } else if (command === "reset-mfa") {
    const reset = await resetFactors(api, email!);
    console.log(
      !reset
        ? `${email} has no account.`
        : `${email}: ${reset.factors} second factor(s) and every recovery code removed, and signed out everywhere. They set up an authenticator app on their next visit.`,
    );
  } else {
    const change = await removeMember(api, email!);
    console.log(
      !change
        ? `${email} has no account.`
        : change.kind !== "updated"
          ? change.formerly
            ? `${email} is no longer the address of an account; ${change.user.email} (the account that had it) is not on the team.`
            : `${email} was not on the team.`
          : change.formerly
            ? `${email} is no longer an address of a member; ${change.user.email} (the same account) is no longer on the team (the account stays; its access ended).`
            : `${email} is no longer on the team (the account stays; its access ended).`,
    );
  }
} finally {
  await close();
}
