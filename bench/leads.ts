// npm run bench:leads: the team's inbox at scale, on PostgreSQL (the server as `npm start` runs
// it, a member signed in on aal2 through the real API). With 1,000,000 leads over the five forms:
// the p50/p99 of the inbox's first page (newest 50), of a page filtered by form, of a search
// across name, email and company, of the People list's first page (one row per address, latest
// activity first) and of one person's entries (target: p50 ≤ 50 ms each). Then the CSV export of
// 100,000 leads (one form's): its time, and the server's peak memory while it streams, beside its
// memory before. BENCH_LEADS sets the number of leads (a small run proves the script works).
import fs from "node:fs";
import { mintApiKey } from "../server/security/keys.ts";
import { stepAt, totpCode } from "../server/auth/mfa/totp.ts";
import { TEST_JWT_SECRET } from "../tests/support/app.ts";
import { createTestDatabase, postgresAvailable } from "../tests/support/postgres.ts";
import { sharedDeploymentEnv, startServer } from "../tests/support/server-process.ts";
import { openPostgres } from "../server/db/postgres.ts";
import { fmt, median, percentile, table } from "./lib.ts";

const LEADS = Number(process.env.BENCH_LEADS ?? 1_000_000);
const EXPORTED = Number(process.env.BENCH_EXPORT ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);

if (!(await postgresAvailable())) {
  console.error("bench:leads needs PostgreSQL (TEST_DATABASE_URL or a local server)");
  process.exit(1);
}
const database = await createTestDatabase();
const server = await startServer({
  ...sharedDeploymentEnv(database.url),
  MAILER_AUTOCONFIRM: "true",
  TRUST_PROXY: "loopback",
});
const db = await openPostgres(database.url, 2);
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

try {
  // 1,000,000 leads: the export's form gets EXPORTED of them, the four others the rest.
  const rest = Math.floor((LEADS - EXPORTED) / 4);
  const spread = (n: string) => `now() - make_interval(secs => ${n})`;
  await db.query(
    `INSERT INTO public.contact_messages (name, email, phone, message, created_at)
     SELECT 'Contact ' || n, 'contact' || n || '@lumen-freight.example', '+1 206 555 0100', 'Hello, about pricing', ${spread("n * 3")}
     FROM generate_series(1, $1::int) AS n`,
    [EXPORTED],
  );
  await db.query(
    `INSERT INTO public.newsletter_subscribers (email, created_at)
     SELECT 'reader' || n || '@news.example', ${spread("n * 3 + 1")} FROM generate_series(1, $1::int) AS n`,
    [rest],
  );
  // A tenth of the Watch Demo requests come from contacts' addresses: people with two entries.
  await db.query(
    `INSERT INTO public.demo_requests (email, created_at)
     SELECT CASE WHEN n % 10 = 7 THEN 'contact' ELSE 'cto' END || n || '@lumen-freight.example',
       ${spread("n * 3 + 2")} FROM generate_series(1, $1::int) AS n`,
    [rest],
  );
  await db.query(
    `INSERT INTO public.access_requests (first_name, last_name, email, company_name, company_size, department, created_at)
     SELECT 'Ada', 'Quinn ' || n, 'ada' || n || '@orbit.example', 'Orbit ' || (n % 1000), '51-200', 'Sales', ${spread("n * 5")}
     FROM generate_series(1, $1::int) AS n`,
    [rest],
  );
  await db.query(
    `INSERT INTO public.demo_form_requests (name, email, phone, company, position, created_at)
     SELECT 'Bo Lind ' || n, 'bo' || n || '@harbor.example', '+1 206 555 0101', 'Harbor ' || (n % 1000), 'VP Sales', ${spread("n * 7")}
     FROM generate_series(1, $1::int) AS n`,
    [rest],
  );
  await db.exec("ANALYZE");

  // A member on aal2, through the API as the workspace signs in.
  const auth = async (path: string, body: object, token?: string) => {
    const res = await fetch(`${server.url}/auth/v1${path}`, {
      method: "POST",
      headers: {
        apikey: server.anonKey,
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as unknown;
  };
  // Made by the admin API with its address confirmed (an account MAILER_AUTOCONFIRM confirmed as
  // given has an unproven address and reads nothing: decision 0041), then signed in.
  const service = mintApiKey(new TextEncoder().encode(TEST_JWT_SECRET), "service_role");
  const email = "member@revwise.example";
  const password = "Bench-Member-Passphrase-9";
  const made = await fetch(`${server.url}/auth/v1/admin/users`, {
    method: "POST",
    headers: {
      apikey: service,
      authorization: `Bearer ${service}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({
      email,
      password,
      email_confirm: true,
      app_metadata: { team_role: "member" },
    }),
  });
  if (!made.ok) throw new Error(`admin/users: ${made.status} ${await made.text()}`);
  const { access_token: aal1 } = (await auth("/token?grant_type=password", {
    email,
    password,
  })) as { access_token: string };
  const factor = (await auth("/factors", { factor_type: "totp" }, aal1)) as {
    id: string;
    totp: { secret: string };
  };
  const challenge = (await auth(`/factors/${factor.id}/challenge`, {}, aal1)) as { id: string };
  const { access_token: token } = (await auth(
    `/factors/${factor.id}/verify`,
    { challenge_id: challenge.id, code: totpCode(factor.totp.secret, stepAt(Date.now())) },
    aal1,
  )) as { access_token: string };
  const headers = { apikey: server.anonKey, authorization: `Bearer ${token}` };

  // Each page as the workspace asks for it: with its estimated total ("1–50 of about N").
  const timed = async (query: string, relation = "leads") => {
    const times: number[] = [];
    for (let i = 0; i < SAMPLES + 10; i++) {
      const t = performance.now();
      const res = await fetch(`${server.url}/rest/v1/${relation}?${query}`, {
        headers: { ...headers, prefer: "count=estimated" },
      });
      await res.arrayBuffer();
      if (res.status !== 200 && res.status !== 206) throw new Error(`${query}: ${res.status}`);
      if (i >= 10) times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return `p50 ${fmt(median(times), 1)} ms · p99 ${fmt(percentile(times, 99), 1)} ms`;
  };
  const rows: { measure: string; value: string }[] = [];
  rows.push({
    measure: `inbox, newest 50 of ${fmt(LEADS)}`,
    value: await timed("select=*&order=created_at.desc&limit=50"),
  });
  rows.push({
    measure: "inbox filtered by form (Request Demo), newest 50",
    value: await timed("select=*&kind=eq.request_demo&order=created_at.desc&limit=50"),
  });
  rows.push({
    measure: "inbox search (name, email, company), newest 50",
    value: await timed("select=*&search=ilike.*harbor 7*&order=created_at.desc&limit=50"),
  });
  rows.push({
    measure: "people, latest activity first, 50",
    value: await timed("select=*&order=created_at.desc,person.desc&limit=50", "people"),
  });
  rows.push({
    measure: "one person's entries (every form)",
    value: await timed(
      "select=*&person=eq.contact7@lumen-freight.example&order=created_at.desc&limit=50",
    ),
  });

  // The export: one form's EXPORTED leads, timed, the server's memory sampled as it streams.
  const before = rssOf(server.child.pid!);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.child.pid!))), 20);
  const t = performance.now();
  const res = await fetch(`${server.url}/rest/v1/leads?kind=eq.contact`, {
    headers: { ...headers, accept: "text/csv" },
  });
  const csv = await res.text();
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  const lines = csv.split("\r\n").length - 2;
  if (lines !== EXPORTED) throw new Error(`export: ${lines} rows, expected ${EXPORTED}`);
  rows.push({
    measure: `CSV export of ${fmt(EXPORTED)} leads (${fmt(csv.length / 1e6, 1)} MB)`,
    value: `${fmt(seconds, 2)} s`,
  });
  rows.push({
    measure: "server memory: before / peak during the export",
    value: `${fmt(before)} MB / ${fmt(peak)} MB`,
  });
  console.log(`Revwise leads benchmark · PostgreSQL · ${fmt(LEADS)} leads\n`);
  table(rows);
} finally {
  await db.close();
  await server.stop();
  await database.drop();
}
