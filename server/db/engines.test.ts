// Which test files run on both database engines, and why (docs/decisions/0043): a suite runs on
// embedded PGlite alone unless its subject can differ between PGlite and PostgreSQL, because
// PGlite is PostgreSQL's own code and answers every statement as PostgreSQL does, on one
// connection. What can differ: the engine adapters (db/pglite.ts, db/postgres.ts: errors, types,
// transactions), migrations on a database made by initdb, requests at the same moment that only
// the database's locks and atomic statements keep apart (PGlite runs one statement at a time, so a
// race always passes there), a second instance on the same database, and SQL whose work is time
// or order in the database. A file that calls describeEachDatabase or describeAuthSuiteEachDatabase
// is listed here with its reason, and every file listed calls one of them.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const BOTH_ENGINES: Record<string, string> = {
  "server/db/database.test.ts":
    "the engine adapters themselves: migrations from scratch, concurrent migrate(), errors, transactions, parameters",
  "server/db/insert-batches.test.ts":
    "rows of requests at the same moment in one statement, on a pool of connections and on PGlite's one, a failing row told apart",
  "server/db/ids.test.ts":
    "ids made by SQL (internal.uuid_v7(), from the database's clock) and every table's default",
  "server/leads/kinds.test.ts":
    "the schema the migrations create on PostgreSQL, beside PGlite's (from the build's template)",
  "server/leads/retention.test.ts": "deletes by age computed in SQL from the database's clock",
  "server/analytics/visitor-counts.test.ts":
    "days counted and deleted in SQL, and two instances running the job at once counting each code once",
  "server/queue/expiry.test.ts": "deletes by age computed in SQL from the database's clock",
  "server/queue/lease.test.ts":
    "claim leases kept by the database's clock while this process's clock stands still",
  "server/mail/delivery.test.ts":
    "several workers taking rows from one outbox: leases and row locks (SKIP LOCKED)",
  "server/newsletter/issues.test.ts":
    "an issue's copies queued under its row lock (SKIP LOCKED), paced by the database's clock",
  "server/newsletter/sender.test.ts":
    "the idle sender's one question, judged by the database's clock, says yes whenever a step has work",
  "server/webhooks/webhooks.test.ts":
    "deliveries leased by workers, and a second instance on the same database",
  "server/functions/functions.test.ts":
    "captchas forgotten by SQL over time; submissions at the same moment and from a second instance, kept apart by the database",
  "server/rest/handlers/lead-inserts.test.ts":
    "PostgREST inserts made into SQL, at the same moment and from a second instance",
  "server/rest/handlers/lead-states.test.ts":
    "two members saving the same lead at the same moment: row locks decide",
  "server/rest/handlers/reads.test.ts":
    "PostgREST filters, search, order and counts made into SQL; PostgreSQL's refusals through each adapter",
  "server/leads/due-reminders.test.ts":
    "instances queueing the day's emails at the same moment: the day's row (ON CONFLICT) decides",
  "server/rest/people.test.ts":
    "a person's entries counted by triggers as they arrive at the same moment: the row lock of the upsert decides",
  "server/rest/methods.test.ts": "read-only transactions (25006) as each adapter runs them",
  "server/rest/team-settings.test.ts":
    "the team's zone made once (ON CONFLICT) and read again by another instance's connection",
  "server/auth/handlers/wrong-codes.test.ts":
    "wrong codes counted in the database by atomic statements, across instances",
  "server/auth/handlers/signup.test.ts": "sign-ups racing for one address: a unique index decides",
  "server/auth/handlers/token.test.ts":
    "what a sign-in's one statement stores; two tabs refreshing one token at the same moment: row locks decide",
  "server/auth/models/user-json.test.ts":
    "identities as rows beside the factors as JSON (json_agg's text times) in one statement, as each adapter returns them",
  "server/auth/handlers/user.test.ts":
    "an email change asked again at the same moment: an atomic claim of the minute decides",
  "server/auth/handlers/phone.test.ts":
    "a change of number asked again at the same moment: an atomic claim of the minute decides",
  "server/auth/handlers/otp.test.ts":
    "two codes asked for one number at the same moment: an atomic claim of the minute decides",
  "server/functions/account.test.ts":
    "two devices deleting one account at the same moment: the user's row lock decides",
  "server/auth/handlers/sso.test.ts":
    "a single sign-on's flow state claimed once by one atomic statement, and its account found or made under the database's locks",
  "server/auth/handlers/factors-webauthn.test.ts":
    "a security key's counter moved forward by a checked statement, and its challenge taken once",
  "server/auth/handlers/passkeys.test.ts":
    "two answers to one passkey challenge at the same moment: an atomic take decides; counters moved by a checked statement",
  "server/auth/handlers/oauth-server.test.ts":
    "two exchanges of one OAuth code at the same moment: the authorization's row lock decides",
  "server/auth/handlers/external.test.ts":
    "two callbacks with one provider state at the same moment: an atomic claim decides",
  "server/auth/handlers/providers.test.ts":
    "two first sign-ins of one person at the same moment: transaction-scoped advisory locks decide",
  "server/auth/handlers/reauthenticate.test.ts":
    "reauthentication asked at the same moment: an atomic claim of the minute decides",
  "server/app.test.ts": "health when the database is gone: each adapter's failure once closed",
  "server/input.test.ts":
    "text the database cannot store (NUL, lone surrogates): each adapter's error, never a 5xx",
  "server/fuzz.test.ts":
    "arbitrary input reaching each adapter: its errors are 4xx and a 4xx writes nothing",
};

const ROOT = path.resolve(import.meta.dirname, "../..");
const BOTH = /\bdescribe(?:AuthSuite)?EachDatabase\(/;

function testFiles(): string[] {
  return fs
    .globSync("{server,scripts,tests,app,common}/**/*.test.{ts,tsx}", { cwd: ROOT })
    .map((file) => file.split(path.sep).join("/"))
    .sort();
}

it("runs on both engines exactly the files listed with their reason", () => {
  const both = testFiles().filter((file) =>
    BOTH.test(fs.readFileSync(path.join(ROOT, file), "utf8")),
  );
  expect(both).toEqual(Object.keys(BOTH_ENGINES).sort());
  for (const reason of Object.values(BOTH_ENGINES)) expect(reason.length).toBeGreaterThan(20);
});

it("finds the test files it reads", () => {
  const files = testFiles();
  expect(files).toContain("server/db/engines.test.ts");
  expect(files.filter((file) => file.startsWith("server/auth/")).length).toBeGreaterThan(10);
});
