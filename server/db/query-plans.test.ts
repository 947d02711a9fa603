// Every query the server runs on a request or in the mail worker finds its rows through an index,
// so it costs the same with a million accounts as with ten. The server is driven through its real
// flows (accounts, tokens, sign-outs, recovery, PKCE, SAML single sign-on, passkeys and security
// keys, email change, REST inserts, the lead functions, mail delivery and its retries, webhook
// deliveries, their retries and a resend, the dev mailbox) on PostgreSQL with every migration,
// on a database handle that notes each statement it is given. Each noted statement is then
// planned with EXPLAIN, sequential scans disabled: a plan that still reads a whole table (a Seq
// Scan, an index read end to end with no condition and no LIMIT, or a bitmap built from one) has
// no index to use. A delete's cascades are not in its plan: the foreign keys into tables rows are
// deleted from must lead an index. The statements written in server/ are matched against the
// noted ones, so a new query that no flow runs fails here until it is driven (and planned) too.
import type { FastifyRequest } from "fastify";
import type { ParsedMail } from "mailparser";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, uniqueIp, type ApiServer } from "../../tests/support/api-server.ts";
import {
  codeIn,
  emailTo,
  followLink,
  linkIn,
  PASSWORD,
  uniqueEmail,
} from "../../tests/support/auth.ts";
import { solvedPayload } from "../../tests/support/captcha.ts";
import { waitUntil } from "../../tests/support/poll.ts";
import { LEAD_FORMS } from "../../tests/support/leads.ts";
import {
  createTestDatabase,
  postgresAvailable,
  type TestDatabase,
} from "../../tests/support/postgres.ts";
import {
  providerRoundTrip,
  startIdp,
  type TestIdp,
} from "../../tests/support/identity-provider.ts";
import { postAnswer, samlPrivateKeyEnv, startSamlIdp } from "../../tests/support/saml-idp.ts";
import { addressOf, startSmtp, type TestSmtp } from "../../tests/support/smtp.ts";
import { SoftwareAuthenticator } from "../../tests/support/software-authenticator.ts";
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from "../../tests/support/webhook-receiver.ts";
import { pageStats, PageViews, sourceStats } from "../analytics/page-views.ts";
import { countPastVisitors } from "../analytics/visitor-counts.ts";
import { deleteExpiredAuditEntries } from "../audit/audit-log.ts";
import { cleanUpSignIns } from "../auth/cleanup.ts";
import { stepAt, totpCode } from "../../tests/support/totp.ts";
import { createOneTimeToken, liveToken, putBackToken } from "../auth/models/one-time-tokens.ts";
import { giveStampBack } from "../auth/models/sent-stamps.ts";
import { DIGESTS, runDigest } from "../leads/digests.ts";
import { runDueReminders } from "../leads/due-reminders.ts";
import { deleteExpiredLeads } from "../leads/retention.ts";
import { deleteOldTextMessages } from "../mail/text-messages.ts";
import { deleteUnconfirmed } from "../newsletter/subscribers.ts";
import { SecretBox } from "../security/secret-box.ts";
import { sealPlainSecrets, syncEnvEndpoint } from "../webhooks/endpoints.ts";
import type { Database, Queryable, Row } from "./database.ts";
import { openPostgres } from "./postgres.ts";

/**
 * Statements that read a whole table on purpose say so in a comment: an operator's listing that
 * counts every row (not on a visitor's path).
 */
const WHOLE_TABLE_MARK = "/* whole table:";

/** The site's origin as the passkeys' relying party knows it (GOTRUE_WEBAUTHN_RP_ORIGINS). */
const PASSKEY_ORIGIN = "http://localhost:5173";

type PasskeyOptions = Parameters<SoftwareAuthenticator["create"]>[0] &
  Parameters<SoftwareAuthenticator["get"]>[0];

const EVENTS_SECRET = "a-mail-provider-secret-of-32-characters-or-more";

/** Tables read whole on purpose: the migrations' own bookkeeping, read once at start. */
const SMALL_TABLES = new Set(["schema_migrations"]);

/** Each distinct statement the server ran, with the parameters of its first run. */
type Noted = Map<string, readonly unknown[]>;

function noting(db: Database, noted: Noted): Database {
  const note = (q: Queryable): Queryable => ({
    query<T extends Row>(sql: string, params?: readonly unknown[]) {
      if (!noted.has(sql)) noted.set(sql, params ?? []);
      return q.query<T>(sql, params);
    },
    exec: (sql) => q.exec(sql),
    afterCommit: (fn) => q.afterCommit(fn),
  });
  return {
    ...note(db),
    kind: db.kind,
    transaction: (fn) => db.transaction((tx) => fn(note(tx))),
    close: () => db.close(),
  };
}

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Plans?: PlanNode[];
};

/** Whether an index node (or every index node under a bitmap) has a condition to seek by. */
const seeks = (node: PlanNode): boolean =>
  node["Node Type"] === "Bitmap Index Scan"
    ? Boolean(node["Index Cond"])
    : (node.Plans ?? []).every(seeks);

/**
 * The tables a plan reads whole: Seq Scans, index scans with no condition and no LIMIT above
 * (the index read end to end), bitmap scans built from such an index read.
 */
function wholeReads(node: PlanNode, underLimit = false): string[] {
  const type = node["Node Type"];
  const limited = underLimit || type === "Limit";
  const relation = node["Relation Name"];
  if (relation && SMALL_TABLES.has(relation)) return [];
  const whole =
    type === "Seq Scan" ||
    (/^Index (Only )?Scan$/.test(type) && !node["Index Cond"] && !limited) ||
    (type === "Bitmap Heap Scan" && !seeks(node));
  return [
    ...(whole ? [`${type} on ${relation}`] : []),
    ...(node.Plans ?? []).flatMap((child) => wholeReads(child, limited)),
  ];
}

const normalise = (sql: string) => sql.replace(/\s+/g, " ").trim();

/** The SQL statements written in the server's sources (up to their first interpolation). */
function statementsInSources(): { file: string; sql: string }[] {
  const root = path.resolve(import.meta.dirname, "..");
  const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter(
    (f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.includes("migrations"),
  );
  return files.flatMap((file) =>
    [
      ...fs
        .readFileSync(path.join(root, file), "utf8")
        .matchAll(/["`]\s*((?:SELECT|INSERT|UPDATE|DELETE|WITH)\s(?:[^"`$]|\$(?!\{))*)/g),
    ].map((m) => ({ file: `server/${file}`, sql: normalise(m[1]!) })),
  );
}

const pgAvailable = await postgresAvailable();

describe.skipIf(!pgAvailable)("hot-path queries use indexes [postgres]", () => {
  const noted: Noted = new Map();
  let testDb: TestDatabase;
  let raw: Database;
  /** What the server is given: `raw`, noting each statement. The test's own setup uses `raw`. */
  let db: Database;
  let smtp: TestSmtp;
  let receiver: WebhookReceiver;
  let server: ApiServer;
  let idp: TestIdp;
  let explain: pg.Client;

  const auth = (
    pathname: string,
    init: { method?: string; body?: unknown; token?: string; ip?: string } = {},
  ) =>
    server.fetch(`${server.url}/auth/v1${pathname}`, {
      method: init.method ?? (init.body ? "POST" : "GET"),
      headers: {
        apikey: server.anonKey,
        "content-type": "application/json",
        "x-forwarded-for": init.ip ?? uniqueIp(),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
  const json = async (res: Promise<Response>) => {
    const r = await res;
    if (!r.ok) throw new Error(`${r.url}: ${r.status} ${await r.text()}`);
    return (await r.json()) as { access_token: string; refresh_token: string };
  };
  const client = () => server.client({ ip: uniqueIp() });
  const signIn = (email: string, password = PASSWORD) =>
    json(auth("/token?grant_type=password", { body: { email, password } }));

  /** A confirmed account (sign-up, emailed link) and a fresh password session. */
  async function confirmedUser(label: string) {
    const email = uniqueEmail(label);
    await client().auth.signUp({ email, password: PASSWORD });
    await followLink(linkIn(await emailTo(smtp, email, "Confirm your Revwise account")));
    return { email, session: await signIn(email) };
  }

  const insert = async (table: string, row: Record<string, string>, status = 201) => {
    const res = await fetch(`${server.url}/rest/v1/${table}`, {
      method: "POST",
      headers: {
        apikey: server.anonKey,
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
      },
      body: JSON.stringify(row),
    });
    expect(res.status).toBe(status);
  };

  /** Waits until a statement containing `part` has run (the worker runs on its own clock). */
  async function ran(part: string) {
    await waitUntil(async () => [...noted.keys()].some((sql) => sql.includes(part))).catch(() => {
      throw new Error(`no statement with "${part}" ran`);
    });
  }

  beforeAll(async () => {
    testDb = await createTestDatabase();
    raw = await openPostgres(testDb.url, 4);
    db = noting(raw, noted);
    smtp = await startSmtp();
    receiver = await startWebhookReceiver();
    idp = await startIdp();
    server = await startApiServer(db, {
      env: {
        ...receiver.env,
        ...idp.env("KEYCLOAK"),
        SMTP_URL: smtp.url,
        DEV_MAILBOX: "true",
        NOTIFY_EMAIL: "sales@revwise.example",
        RATE_LIMIT_EMAIL_SENT: "100000",
        RATE_LIMIT_LEAD_EMAIL_SENT: "100000",
        GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
        GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true",
        GOTRUE_MFA_PHONE_ENROLL_ENABLED: "true",
        GOTRUE_MFA_PHONE_VERIFY_ENABLED: "true",
        GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: "true",
        GOTRUE_OAUTH_SERVER_ENABLED: "true",
        GOTRUE_SAML_ENABLED: "true",
        GOTRUE_SAML_PRIVATE_KEY: samlPrivateKeyEnv(),
        GOTRUE_PASSKEY_ENABLED: "true",
        GOTRUE_MFA_WEB_AUTHN_ENROLL_ENABLED: "true",
        GOTRUE_MFA_WEB_AUTHN_VERIFY_ENABLED: "true",
        GOTRUE_WEBAUTHN_RP_ID: "localhost",
        GOTRUE_WEBAUTHN_RP_ORIGINS: PASSKEY_ORIGIN,
        GOTRUE_RATE_LIMIT_PASSKEY: "0",
        GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION: "true",
        MAIL_LEASE_SECONDS: "1", // renewed every 0.2 s while an email is on the wire
        MAIL_EVENTS_SECRET: EVENTS_SECRET,
        METRICS_PORT: "0",
      },
    });

    // Accounts: sign-up, confirmation, sign-in, the user, its updates, a repeated sign-up.
    await json(auth("/health"));
    const { email, session } = await confirmedUser("plans");
    await json(auth("/user", { token: session.access_token }));
    await json(
      auth("/user", { method: "PUT", body: { data: { a: 1 } }, token: session.access_token }),
    );
    await client().auth.signUp({ email, password: PASSWORD });
    await emailTo(smtp, email, "You already have a Revwise account");

    // Refresh tokens: rotation, the parent reused just after, and a late reuse ending the session.
    const refresh = (token: string) =>
      auth("/token?grant_type=refresh_token", { body: { refresh_token: token } });
    const first = await json(refresh(session.refresh_token));
    const second = await json(refresh(first.refresh_token));
    await json(refresh(first.refresh_token));
    await raw.query(
      "UPDATE auth.refresh_tokens SET revoked_at = now() - interval '1 hour' WHERE revoked",
    );
    expect((await refresh(session.refresh_token)).status).toBe(400);
    expect((await refresh(second.refresh_token)).status).toBe(400);

    // Sign-outs of each scope; a password change signs the other sessions out.
    const sessions = [await signIn(email), await signIn(email), await signIn(email)];
    await auth("/user", {
      method: "PUT",
      body: { password: "Another-Password-7", current_password: PASSWORD },
      token: sessions[0]!.access_token,
    });
    const more = [
      await signIn(email, "Another-Password-7"),
      await signIn(email, "Another-Password-7"),
    ];
    // The account page ends one chosen session (DELETE /functions/v1/sessions/{id}).
    const chosen = await signIn(email, "Another-Password-7");
    const chosenId = (
      JSON.parse(Buffer.from(chosen.access_token.split(".")[1]!, "base64url").toString()) as {
        session_id: string;
      }
    ).session_id;
    const ended = await fetch(`${server.url}/functions/v1/sessions/${chosenId}`, {
      method: "DELETE",
      headers: { apikey: server.anonKey, authorization: `Bearer ${more[0]!.access_token}` },
    });
    expect(ended.status).toBe(204);
    for (const [scope, s] of [
      ["local", more[0]!],
      ["others", more[1]!],
      ["global", more[1]!],
    ] as const)
      expect(
        (await auth(`/logout?scope=${scope}`, { method: "POST", token: s.access_token })).status,
      ).toBe(204);

    // Recovery by link; confirmation by code; a resend (nothing left to send).
    const recovering = await confirmedUser("recover");
    await json(auth("/recover", { body: { email: recovering.email } }));
    await followLink(linkIn(await emailTo(smtp, recovering.email, "Reset your Revwise password")));
    const unconfirmed = uniqueEmail("resend");
    await client().auth.signUp({ email: unconfirmed, password: PASSWORD });
    // A second sign-up on the unconfirmed address: its confirmation then voids the password.
    await client().auth.signUp({ email: unconfirmed, password: PASSWORD });
    const code = codeIn(await emailTo(smtp, unconfirmed, "Confirm your Revwise account"));
    await json(auth("/verify", { body: { type: "signup", email: unconfirmed, token: code } }));
    await json(auth("/resend", { body: { type: "signup", email: unconfirmed } }));
    // Wrong codes: each counted on the code, which dies at the last allowed wrong try.
    const guessed = uniqueEmail("guessed");
    await client().auth.signUp({ email: guessed, password: PASSWORD });
    await emailTo(smtp, guessed, "Confirm your Revwise account");
    for (let i = 0; i < 5; i++)
      expect(
        (await auth("/verify", { body: { type: "signup", email: guessed, token: "000000" } }))
          .status,
      ).toBeGreaterThanOrEqual(400);

    // An external provider: a new account (implicit flow), signed in again by its identity, the
    // PKCE flow and its exchange, an account found by a verified address, an unverified address
    // (held by an account, and new), a signed-in user's link, a forged state.
    let subjects = 0;
    const person = (claims: { email: string; email_verified: boolean }) => {
      const subject = `plans-${++subjects}`;
      idp.accounts.set(subject, claims);
      return subject;
    };
    const authorizeUrl = async (c = client()) =>
      (
        await c.auth.signInWithOAuth({
          provider: "keycloak",
          options: { redirectTo: server.url, skipBrowserRedirect: true },
        })
      ).data.url!;
    const newcomer = person({ email: uniqueEmail("kc"), email_verified: true });
    await providerRoundTrip(idp, await authorizeUrl(), newcomer);
    await providerRoundTrip(idp, await authorizeUrl(), newcomer);
    const pkceProvider = server.client({ ip: uniqueIp(), pkce: true });
    const coded = await providerRoundTrip(
      idp,
      await authorizeUrl(pkceProvider),
      person({ email: uniqueEmail("kc-pkce"), email_verified: true }),
    );
    const providerCode = new URL(coded.location).searchParams.get("code")!;
    expect((await pkceProvider.auth.exchangeCodeForSession(providerCode)).error).toBeNull();
    const holder = await confirmedUser("kc-holder");
    // Its address as MAILER_AUTOCONFIRM confirms one (as given): the provider's proof is its first.
    await raw.query("UPDATE auth.users SET email_unproven = true WHERE email = $1", [holder.email]);
    for (const email_verified of [true, false])
      await providerRoundTrip(
        idp,
        await authorizeUrl(),
        person({ email: holder.email, email_verified }),
      );
    await providerRoundTrip(
      idp,
      await authorizeUrl(),
      person({ email: uniqueEmail("kc-new"), email_verified: false }),
    );
    const linking = await auth(
      "/user/identities/authorize?provider=keycloak&skip_http_redirect=true",
      {
        token: (await confirmedUser("kc-linker")).session.access_token,
      },
    );
    await providerRoundTrip(
      idp,
      ((await linking.json()) as { url: string }).url,
      person({ email: uniqueEmail("kc-link"), email_verified: true }),
    );
    await fetch(`${server.url}/auth/v1/callback?state=${crypto.randomUUID()}&code=x`, {
      redirect: "manual",
    });

    // PKCE: the link gives a code, exchanged with its verifier.
    const pkce = server.client({ ip: uniqueIp(), pkce: true });
    const pkceEmail = uniqueEmail("pkce");
    await pkce.auth.signUp({ email: pkceEmail, password: PASSWORD });
    const link = await followLink(
      linkIn(await emailTo(smtp, pkceEmail, "Confirm your Revwise account")),
    );
    expect(
      (await pkce.auth.exchangeCodeForSession(link.location.searchParams.get("code")!)).error,
    ).toBeNull();

    // The OAuth server: a client made, changed, read, listed, its secret renewed; an authorization
    // opened, approved and exchanged (then its code reused), again at once (consent covers it),
    // denied, expired; the client's refresh, userinfo and revocation; the person's grants and
    // their revocation; the client deleted.
    {
      const oauthAdmin = server.admin().auth.admin.oauth;
      const callback = "http://127.0.0.1:9/callback";
      const made = (
        await oauthAdmin.createClient({ client_name: "Plans", redirect_uris: [callback] })
      ).data!;
      await oauthAdmin.updateClient(made.client_id, { client_name: "Plans 2" });
      await oauthAdmin.getClient(made.client_id);
      await oauthAdmin.listClients();
      const secret = (await oauthAdmin.regenerateClientSecret(made.client_id)).data!.client_secret!;
      const oauthUser = await confirmedUser("oauth");
      const person = server.client({ ip: uniqueIp() });
      await person.auth.setSession(oauthUser.session);
      const verifier = crypto.randomBytes(32).toString("base64url");
      const challenge = crypto.createHash("sha256").update(verifier).digest("base64url");
      const authorize = async (scope = "email") => {
        const query = new URLSearchParams({
          client_id: made.client_id,
          redirect_uri: callback,
          scope,
          code_challenge: challenge,
          code_challenge_method: "S256",
        });
        const res = await fetch(`${server.url}/auth/v1/oauth/authorize?${query}`, {
          redirect: "manual",
        });
        return new URL(res.headers.get("location")!).searchParams.get("authorization_id")!;
      };
      const basic = `Basic ${Buffer.from(`${made.client_id}:${secret}`).toString("base64")}`;
      const oauthToken = (form: Record<string, string>) =>
        fetch(`${server.url}/auth/v1/oauth/token`, {
          method: "POST",
          headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(form),
        });
      const opened = await authorize();
      await person.auth.oauth.getAuthorizationDetails(opened);
      const approval = await person.auth.oauth.approveAuthorization(opened, {
        skipBrowserRedirect: true,
      });
      const oauthCode = new URL(approval.data!.redirect_url).searchParams.get("code")!;
      const exchange = {
        grant_type: "authorization_code",
        code: oauthCode,
        code_verifier: verifier,
      };
      const oauthTokens = await json(oauthToken(exchange));
      expect((await oauthToken(exchange)).status).toBe(400);
      const again = (await person.auth.oauth.getAuthorizationDetails(await authorize())).data as {
        redirect_url: string;
      };
      const fresh = await json(
        oauthToken({
          ...exchange,
          code: new URL(again.redirect_url).searchParams.get("code")!,
        }),
      );
      const kept = await json(
        oauthToken({ grant_type: "refresh_token", refresh_token: fresh.refresh_token }),
      );
      await json(auth("/oauth/userinfo", { token: kept.access_token }));
      expect(
        (
          await fetch(`${server.url}/auth/v1/oauth/revoke`, {
            method: "POST",
            headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ token: kept.refresh_token }),
          })
        ).status,
      ).toBe(200);
      expect(oauthTokens.access_token).toBeTruthy();
      // A wider scope than allowed before: asked, then denied.
      const denied = await authorize("email phone");
      await person.auth.oauth.getAuthorizationDetails(denied);
      await person.auth.oauth.denyAuthorization(denied, { skipBrowserRedirect: true });
      const late = await authorize();
      await raw.query(
        `UPDATE auth.oauth_authorizations SET created_at = now() - interval '1 hour',
           expires_at = now() - interval '1 minute' WHERE authorization_id = $1`,
        [late],
      );
      await person.auth.oauth.getAuthorizationDetails(late);
      await person.auth.oauth.listGrants();
      await person.auth.oauth.revokeGrant({ clientId: made.client_id });
      await oauthAdmin.deleteClient(made.client_id);
    }

    // SAML single sign-on: a company's provider registered, listed (all, by resource id and by
    // its beginning), read (by id and by resource id), changed (its domains, its metadata now from
    // its URL); a person signed in through it (a new account, then again by its identity), its
    // metadata fetched anew once a day old, the provider deleted.
    {
      const samlIdp = await startSamlIdp(async () =>
        (await fetch(`${server.url}/auth/v1/sso/saml/metadata`)).text(),
      );
      try {
        const sso = async (pathname: string, method: string, body?: unknown) => {
          const res = await auth(`/admin/sso/providers${pathname}`, {
            method,
            body,
            token: server.serviceRoleKey,
          });
          if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
          return (await res.json()) as { id: string };
        };
        const company = `plans-${crypto.randomUUID().slice(0, 8)}`;
        const domains = [`${company}.example`, `${company}-group.example`] as const;
        const provider = await sso("", "POST", {
          type: "saml",
          metadata_xml: samlIdp.metadataXml,
          domains: [domains[0]],
          resource_id: company,
          attribute_mapping: { keys: { email: { name: "email" } } },
        });
        for (const query of ["", `?resource_id=${company}`, `?resource_id_prefix=plans-`])
          await sso(query, "GET");
        await sso(`/${provider.id}`, "GET");
        await sso(`/resource_${company}`, "GET");
        await sso(`/${provider.id}`, "PUT", {
          metadata_url: samlIdp.metadataUrl,
          domains: [domains[1]],
        });
        const employee = { nameId: `plans-${crypto.randomUUID()}` };
        const samlSignIn = async () => {
          const { data, error } = await client().auth.signInWithSSO({
            domain: domains[1],
            options: { redirectTo: server.url, skipBrowserRedirect: true },
          });
          expect(error).toBeNull();
          const answer = await samlIdp.answer(data!.url, {
            ...employee,
            attributes: { email: [`${employee.nameId}@${domains[1]}`] },
          });
          const landed = await postAnswer(answer, uniqueIp());
          expect(landed.headers.get("location")).toContain("access_token=");
        };
        await samlSignIn();
        await raw.query(
          "UPDATE auth.saml_providers SET updated_at = now() - interval '2 days' WHERE sso_provider_id = $1",
          [provider.id],
        );
        await samlSignIn();
        await sso(`/${provider.id}`, "DELETE");
      } finally {
        await samlIdp.close();
      }
    }

    // Passkeys: one registered by a signed-in user signs its person in, is listed, renamed and
    // removed; a second one listed and removed by the admin. A security key enrolled as a second
    // factor, its first ceremony verified.
    {
      const owner = await confirmedUser("plans-passkey");
      const device = server.client({ ip: uniqueIp() });
      await device.auth.setSession(owner.session);
      const register = async (authenticator: SoftwareAuthenticator) => {
        const { data: options } = await device.auth.passkey.startRegistration();
        const registered = await device.auth.passkey.verifyRegistration({
          challengeId: options!.challenge_id,
          credential: authenticator.create(options!.options as PasskeyOptions) as never,
        });
        expect(registered.error).toBeNull();
        return (registered.data as { id: string }).id;
      };
      const authenticator = new SoftwareAuthenticator(PASSKEY_ORIGIN);
      const passkeyId = await register(authenticator);
      const visitor = client();
      const { data: signInOptions } = await visitor.auth.passkey.startAuthentication();
      const signedIn = await visitor.auth.passkey.verifyAuthentication({
        challengeId: signInOptions!.challenge_id,
        credential: authenticator.get(signInOptions!.options as PasskeyOptions) as never,
      });
      expect(signedIn.error).toBeNull();
      expect((await device.auth.passkey.list()).error).toBeNull();
      expect(
        (await device.auth.passkey.update({ passkeyId, friendlyName: "Plans laptop" })).error,
      ).toBeNull();
      expect((await device.auth.passkey.delete({ passkeyId })).error).toBeNull();
      const second = await register(new SoftwareAuthenticator(PASSKEY_ORIGIN));
      const userId = (owner.session as unknown as { user: { id: string } }).user.id;
      const passkeyAdmin = server.admin().auth.admin.passkey;
      expect((await passkeyAdmin.listPasskeys({ userId })).error).toBeNull();
      expect((await passkeyAdmin.deletePasskey({ userId, passkeyId: second })).error).toBeNull();

      const keyIp = uniqueIp(); // a challenge is answered from where it was asked for
      const securityKey = (await (
        await auth("/factors", {
          body: { factor_type: "webauthn", friendly_name: "Plans key" },
          token: owner.session.access_token,
          ip: keyIp,
        })
      ).json()) as { id: string };
      const keyChallenge = (await (
        await auth(`/factors/${securityKey.id}/challenge`, {
          body: { webauthn: { rp_id: "localhost", rp_origins: [PASSKEY_ORIGIN] } },
          token: owner.session.access_token,
          ip: keyIp,
        })
      ).json()) as {
        id: string;
        webauthn: { credential_options: { publicKey: PasskeyOptions } };
      };
      await json(
        auth(`/factors/${securityKey.id}/verify`, {
          body: {
            challenge_id: keyChallenge.id,
            webauthn: {
              type: "create",
              rp_id: "localhost",
              rp_origins: [PASSKEY_ORIGIN],
              credential_response: new SoftwareAuthenticator(PASSKEY_ORIGIN, false).create(
                keyChallenge.webauthn.credential_options.publicKey,
              ),
            },
          },
          token: owner.session.access_token,
          ip: keyIp,
        }),
      );
    }

    // Email change: both links, and a resend of the change.
    const changing = await confirmedUser("change");
    const next = uniqueEmail("changed");
    await json(
      auth("/user", { method: "PUT", body: { email: next }, token: changing.session.access_token }),
    );
    await raw.query("UPDATE auth.users SET email_change_sent_at = now() - interval '1 hour'");
    const toNew = (m: ParsedMail) =>
      addressOf(m) === next && m.subject === "Confirm your new Revwise email address";
    const toCurrent = (m: ParsedMail) =>
      addressOf(m) === changing.email &&
      m.subject === "Confirm the change of your Revwise email address";
    // A resend sends both links again and replaces the first two: the second pair confirms.
    const replaced = [await smtp.waitFor(toNew), await smtp.waitFor(toCurrent)];
    await json(auth("/resend", { body: { type: "email_change", email: changing.email } }));
    for (const to of [toNew, toCurrent])
      await followLink(linkIn(await smtp.waitFor((m) => to(m) && !replaced.includes(m))));

    // Phones: a code by text message (kept for the dev mailbox) signs a number up and in; a change
    // of number, and a first number for an email account.
    const texted = async (to: string) => {
      const [sms] = await raw.query<{ body: string }>(
        "SELECT body FROM mail.text_messages WHERE to_phone = $1 ORDER BY created_at DESC LIMIT 1",
        [to],
      );
      return /\d{6}/.exec(sms!.body)![0];
    };
    const phones = ["15555550142", "15555550143", "15555550144"] as const;
    await json(auth("/otp", { body: { phone: phones[0] } }));
    const byPhone = await json(
      auth("/verify", { body: { type: "sms", phone: phones[0], token: await texted(phones[0]) } }),
    );
    for (const [to, session] of [
      [phones[1], byPhone],
      [phones[2], changing.session],
    ] as const) {
      await json(
        auth("/user", { method: "PUT", body: { phone: to }, token: session.access_token }),
      );
      await json(
        auth("/verify", { body: { type: "phone_change", phone: to, token: await texted(to) } }),
      );
    }

    // A code whose message the Send SMS hook refused puts back the token it replaced, or goes,
    // and gives its minute back.
    const phoneUserId = (byPhone as unknown as { user: { id: string } }).user.id;
    const codeFor = { userId: phoneUserId, type: "confirmation", phone: phones[0] } as const;
    const refused = await createOneTimeToken(db, codeFor);
    await putBackToken(db, phoneUserId, "confirmation", refused.linkToken, undefined);
    await createOneTimeToken(db, codeFor);
    const previous = await liveToken(db, phoneUserId, "confirmation");
    const replacing = await createOneTimeToken(db, codeFor);
    await putBackToken(db, phoneUserId, "confirmation", replacing.linkToken, previous);
    const [stamp] = await raw.query<{ sent: string }>(
      "SELECT confirmation_sent_at::text AS sent FROM auth.users WHERE id = $1",
      [phoneUserId],
    );
    await giveStampBack(db, "confirmation", phoneUserId, {
      previous: null,
      claimed: stamp!.sent,
    });

    // Unlinking the phone identity of an email account.
    const linked = (await (
      await auth("/user", { token: changing.session.access_token })
    ).json()) as {
      identities: { identity_id: string; provider: string }[];
    };
    const phoneIdentity = linked.identities.find((i) => i.provider === "phone")!;
    expect(
      (
        await auth(`/user/identities/${phoneIdentity.identity_id}`, {
          method: "DELETE",
          token: changing.session.access_token,
        })
      ).status,
    ).toBe(200);

    // MFA: enrol, a challenge that expires, one verified (aal2), the factor removed.
    const mfa = await confirmedUser("plans-mfa");
    const mfaIp = uniqueIp(); // a challenge is answered from where it was asked for
    const enrolled = (await (
      await auth("/factors", { body: { factor_type: "totp" }, token: mfa.session.access_token })
    ).json()) as { id: string; totp: { secret: string } };
    const challenge = async () =>
      (await (
        await auth(`/factors/${enrolled.id}/challenge`, {
          body: {},
          token: mfa.session.access_token,
          ip: mfaIp,
        })
      ).json()) as { id: string };
    const stale = await challenge();
    await raw.query(
      "UPDATE auth.mfa_challenges SET created_at = now() - interval '1 hour' WHERE id = $1",
      [stale.id],
    );
    const totpNow = () => totpCode(enrolled.totp.secret, stepAt(Date.now()));
    expect(
      (
        await auth(`/factors/${enrolled.id}/verify`, {
          body: { challenge_id: stale.id, code: totpNow() },
          token: mfa.session.access_token,
          ip: mfaIp,
        })
      ).status,
    ).toBe(422);
    const answered = (await challenge()).id;
    const wrongTotp = totpNow() === "000000" ? "000001" : "000000";
    expect(
      (
        await auth(`/factors/${enrolled.id}/verify`, {
          body: { challenge_id: answered, code: wrongTotp },
          token: mfa.session.access_token,
          ip: mfaIp,
        })
      ).status,
    ).toBe(422);
    const aal2 = await json(
      auth(`/factors/${enrolled.id}/verify`, {
        body: { challenge_id: answered, code: totpNow() },
        token: mfa.session.access_token,
        ip: mfaIp,
      }),
    );
    // Recovery codes: made by the aal2 session, counted, one used (after a wrong one) by a new
    // password session to reach aal2.
    const recovery = (await (
      await auth("/recovery_codes", { body: {}, token: aal2.access_token })
    ).json()) as { codes: string[] };
    expect((await auth("/recovery_codes", { token: aal2.access_token })).status).toBe(200);
    const again = await signIn(mfa.email);
    expect(
      (await auth("/recovery_codes/verify", { body: { code: "wrong" }, token: again.access_token }))
        .status,
    ).toBe(422);
    await json(
      auth("/recovery_codes/verify", {
        body: { code: recovery.codes[0] },
        token: again.access_token,
      }),
    );
    await json(auth(`/factors/${enrolled.id}`, { method: "DELETE", token: aal2.access_token }));

    // MFA by phone: a number enrolled, a texted code, verified.
    const phoneMfa = await confirmedUser("plans-phone-mfa");
    const phoneMfaIp = uniqueIp();
    const phoneFactor = (await (
      await auth("/factors", {
        body: { factor_type: "phone", phone: "15555550177" },
        token: phoneMfa.session.access_token,
        ip: phoneMfaIp,
      })
    ).json()) as { id: string };
    const phoneChallenge = (await (
      await auth(`/factors/${phoneFactor.id}/challenge`, {
        body: {},
        token: phoneMfa.session.access_token,
        ip: phoneMfaIp,
      })
    ).json()) as { id: string };
    const phoneRaised = await json(
      auth(`/factors/${phoneFactor.id}/verify`, {
        body: { challenge_id: phoneChallenge.id, code: await texted("15555550177") },
        token: phoneMfa.session.access_token,
        ip: phoneMfaIp,
      }),
    );
    // A challenge whose message the Send SMS hook refused gives its interval back.
    const [challenged] = await raw.query<{ at: string }>(
      "SELECT last_challenged_at::text AS at FROM auth.mfa_factors WHERE id = $1",
      [phoneFactor.id],
    );
    await giveStampBack(db, "mfa_challenge", phoneFactor.id, {
      previous: null,
      claimed: challenged!.at,
    });
    // The account page's list of the user's sessions.
    const listed = await fetch(`${server.url}/functions/v1/sessions`, {
      headers: { apikey: server.anonKey, authorization: `Bearer ${phoneRaised.access_token}` },
    });
    expect(listed.status).toBe(200);

    // Reauthentication: a day-old session changes its password with the emailed code.
    await raw.query(
      "UPDATE auth.sessions SET created_at = now() - interval '2 days' WHERE user_id = (SELECT id FROM auth.users WHERE email = $1)",
      [mfa.email],
    );
    await json(auth("/reauthenticate", { token: aal2.access_token }));
    const nonce = codeIn(await emailTo(smtp, mfa.email, "Your Revwise confirmation code"));
    await json(
      auth("/user", {
        method: "PUT",
        body: { password: `${PASSWORD}-changed`, nonce, current_password: PASSWORD },
        token: aal2.access_token,
      }),
    );

    // An anonymous sign-in.
    expect((await client().auth.signInAnonymously()).error).toBeNull();

    // The account page's download of the person's data, and the deletion of their account.
    const leaving = await confirmedUser("plans-leaving");
    const own = (name: string, init: { method: string; body?: unknown }) =>
      fetch(`${server.url}/functions/v1/${name}`, {
        method: init.method,
        headers: {
          apikey: server.anonKey,
          authorization: `Bearer ${leaving.session.access_token}`,
          "content-type": "application/json",
          "x-forwarded-for": uniqueIp(),
        },
        body: init.body ? JSON.stringify(init.body) : undefined,
      });
    expect((await own("account-data", { method: "GET" })).status).toBe(200);
    const deleted = await own("account-deletion", {
      method: "POST",
      body: { current_password: PASSWORD },
    });
    expect(deleted.status).toBe(200);

    // The admin API: pages of users both ways and filtered, creation, updates, factors, soft and
    // hard deletion, generated links and an invitation.
    const adminApi = server.admin().auth.admin;
    const made = await adminApi.createUser({
      email: uniqueEmail("plans-admin"),
      password: PASSWORD,
    });
    const madeId = made.data.user!.id;
    expect((await adminApi.listUsers({ page: 2, perPage: 2 })).error).toBeNull();
    for (const query of [
      "sort=created_at%20asc",
      "filter=plans-admin",
      `former_email=${encodeURIComponent(changing.email)}`,
    ])
      expect((await auth(`/admin/users?${query}`, { token: server.serviceRoleKey })).status).toBe(
        200,
      );
    // The audit log of the events above: a page of all of it, and each filter's page.
    for (const query of [
      "page=2&per_page=5",
      "query=author:plans",
      "query=action:login",
      "query=type:account",
    ])
      expect((await auth(`/admin/audit?${query}`, { token: server.serviceRoleKey })).status).toBe(
        200,
      );
    await adminApi.updateUserById(madeId, {
      app_metadata: { team_role: "member" },
      ban_duration: "1h",
    });
    await adminApi.updateUserById(madeId, {
      email: uniqueEmail("plans-moved"),
      email_confirm: true,
      password: "Moved-Password-9",
    });
    expect((await adminApi.getUserById(madeId)).error).toBeNull();
    const [mfaUser] = await raw.query<{ id: string }>(
      "SELECT id FROM auth.users WHERE email = $1",
      [mfa.email],
    );
    expect((await adminApi.mfa.listFactors({ userId: mfaUser!.id })).error).toBeNull();
    for (const type of ["signup", "magiclink", "invite"] as const)
      expect(
        (
          await adminApi.generateLink({
            type,
            email: uniqueEmail("plans-link"),
            password: PASSWORD,
          })
        ).error,
      ).toBeNull();
    await adminApi.generateLink({ type: "recovery", email: mfa.email });
    await adminApi.generateLink({
      type: "email_change_new",
      email: mfa.email,
      newEmail: uniqueEmail("plans-new"),
    });
    await adminApi.inviteUserByEmail(uniqueEmail("plans-invite"));
    expect((await adminApi.deleteUser(madeId, true)).error).toBeNull();
    expect((await adminApi.deleteUser(madeId)).error).toBeNull();

    // Page analytics: views and visitors written (the day's referring sites and campaigns kept),
    // the day's salt made, the report read; the day's codes counted two days on, the report read
    // from the counts.
    const pageViews = new PageViews(db, server.url);
    const served = { url: "/?utm_campaign=plans", ip: "203.0.113.9" };
    const headers = { "user-agent": "Mozilla/5.0 Firefox/133.0", referer: "https://news.example" };
    pageViews.record({ ...served, headers } as unknown as FastifyRequest, "/");
    await pageViews.flush();
    // The visitor sends a form: their visit converted (and one not yet written waits a flush).
    const [visitLead] = await db.query<{ id: string }>(
      `INSERT INTO public.demo_requests (email, source)
       VALUES ('plans-visit@lumen-freight.example', '{"page": "/"}') RETURNING id`,
    );
    pageViews.converted({ ...served, headers } as unknown as FastifyRequest, {
      id: visitLead!.id,
      path: "/",
    });
    pageViews.converted({ ...served, ip: "203.0.113.10", headers } as unknown as FastifyRequest, {
      id: crypto.randomUUID(),
    });
    await pageViews.flush();
    const today = new Date().toISOString().slice(0, 10);
    expect(await pageStats(db, today, today)).toMatchObject([{ leads: 1, converted: 1 }]);
    expect(await sourceStats(db, today, today)).toMatchObject([{ visitors: 1, leads: 1 }]);
    expect(await countPastVisitors(db, new Date(Date.now() + 2 * 86_400_000))).toBe(1);
    expect(await pageStats(db, today, today)).toMatchObject([
      { views: 1, visitors: 1, leads: 1, converted: 1 },
    ]);
    expect(await sourceStats(db, today, today)).toMatchObject([{ visitors: 1, leads: 1 }]);

    // The leads view, read by a team member on aal2 (filtered, ordered, a page, counted).
    const reader = await confirmedUser("plans-reader");
    const [readerRow] = await raw.query<{ id: string }>(
      "SELECT id FROM auth.users WHERE email = $1",
      [reader.email],
    );
    await adminApi.updateUserById(readerRow!.id, { app_metadata: { team_role: "member" } });
    const readerIp = uniqueIp();
    const readerFactor = (await (
      await auth("/factors", {
        body: { factor_type: "totp" },
        token: reader.session.access_token,
        ip: readerIp,
      })
    ).json()) as { id: string; totp: { secret: string } };
    const readerChallenge = (await (
      await auth(`/factors/${readerFactor.id}/challenge`, {
        body: {},
        token: reader.session.access_token,
        ip: readerIp,
      })
    ).json()) as { id: string };
    const raised = await json(
      auth(`/factors/${readerFactor.id}/verify`, {
        body: {
          challenge_id: readerChallenge.id,
          code: totpCode(readerFactor.totp.secret, stepAt(Date.now())),
        },
        token: reader.session.access_token,
        ip: readerIp,
      }),
    );
    const read = await fetch(
      `${server.url}/rest/v1/leads?select=*&kind=eq.contact&order=created_at.desc&limit=50`,
      {
        headers: {
          apikey: server.anonKey,
          authorization: `Bearer ${raised.access_token}`,
          prefer: "count=exact",
        },
      },
    );
    expect(read.status).toBe(200);
    const outbox = await fetch(
      `${server.url}/rest/v1/emails?select=*&order=created_at.desc&limit=50`,
      { headers: { apikey: server.anonKey, authorization: `Bearer ${raised.access_token}` } },
    );
    expect(outbox.status).toBe(200);
    const resend = await fetch(`${server.url}/rest/v1/rpc/resend_email`, {
      method: "POST",
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${raised.access_token}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ email_id: crypto.randomUUID() }),
    });
    expect(await resend.json()).toBe(false);
    const [contactLead] = await raw.query<{ id: string }>(
      `INSERT INTO public.contact_messages (name, email, phone, message)
       VALUES ('Plan', 'plan@lumen-freight.example', '1', 'Hi') RETURNING id`,
    );
    const wrote = await fetch(`${server.url}/rest/v1/lead_states`, {
      method: "POST",
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${raised.access_token}`,
        "content-type": "application/json",
        prefer: "resolution=merge-duplicates",
      },
      body: JSON.stringify({ kind: "contact", lead_id: contactLead!.id, status: "contacted" }),
    });
    expect(wrote.status).toBe(201);
    // The lead's work (an owner on the team, a next step) and its timeline.
    const asReader = {
      apikey: server.anonKey,
      authorization: `Bearer ${raised.access_token}`,
      "content-type": "application/json",
    };
    const owned = await fetch(`${server.url}/rest/v1/lead_states`, {
      method: "POST",
      headers: { ...asReader, prefer: "resolution=merge-duplicates" },
      body: JSON.stringify({
        kind: "contact",
        lead_id: contactLead!.id,
        owner_id: readerRow!.id,
        next_step: "Call",
        due_on: today,
      }),
    });
    expect(owned.status).toBe(201);
    const logged = await fetch(`${server.url}/rest/v1/lead_notes`, {
      method: "POST",
      headers: asReader,
      body: JSON.stringify({ kind: "contact", lead_id: contactLead!.id, type: "call", body: "Hi" }),
    });
    expect(logged.status).toBe(201);
    // A CSV export long enough for a second batch (after the first batch's last row).
    await raw.query(
      `INSERT INTO public.contact_messages (name, email, phone, message)
       SELECT 'Bulk', 'bulk' || n || '@lumen-freight.example', '1', 'Hi' FROM generate_series(1, 1001) AS n`,
    );
    const exported = await fetch(`${server.url}/rest/v1/leads?kind=eq.contact`, {
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${raised.access_token}`,
        accept: "text/csv",
      },
    });
    expect((await exported.text()).split("\r\n").length).toBeGreaterThan(1001);

    // The workspace's other reads (history, endpoints, delivery log, page statistics), and an
    // admin's endpoint added, changed and deleted (the service-role key: an admin's rights).
    const asMember = { apikey: server.anonKey, authorization: `Bearer ${raised.access_token}` };
    for (const path of [
      `lead_state_changes?lead_id=eq.${contactLead!.id}&order=changed_at`,
      `lead_notes?lead_id=eq.${contactLead!.id}&order=created_at.desc`,
      "team_members?select=id,email&order=email",
      `leads?owner_id=eq.${readerRow!.id}&status=neq.junk&order=due_on.asc.nullslast,created_at.desc,id.desc&limit=50`,
      "leads?person=eq.plan@lumen-freight.example&order=created_at.desc,id.desc&limit=50",
      "people?select=*&order=created_at.desc,person.desc&limit=50",
      "people?select=*&person=ilike.*lumen*&order=created_at.desc,person.desc&limit=50",
      "webhook_endpoints?order=created_at.desc",
      "webhook_deliveries?order=created_at.desc&limit=50",
      `page_stats?day=gte.${today}&day=lte.${today}`,
      `source_stats?day=gte.${today}&day=lte.${today}`,
    ])
      expect((await fetch(`${server.url}/rest/v1/${path}`, { headers: asMember })).status).toBe(
        200,
      );
    const asAdmin = {
      apikey: server.serviceRoleKey,
      authorization: `Bearer ${server.serviceRoleKey}`,
      "content-type": "application/json",
      prefer: "return=representation",
    };
    const [endpoint] = (await (
      await fetch(`${server.url}/rest/v1/webhook_endpoints`, {
        method: "POST",
        headers: asAdmin,
        body: JSON.stringify({ url: "https://crm.example/plans" }),
      })
    ).json()) as { id: string }[];
    for (const method of ["PATCH", "DELETE"]) {
      const changed = await fetch(`${server.url}/rest/v1/webhook_endpoints?id=eq.${endpoint!.id}`, {
        method,
        headers: asAdmin,
        body: method === "PATCH" ? JSON.stringify({ enabled: false }) : undefined,
      });
      expect(changed.status).toBe(200);
    }

    // The Security tab's reads of the audit log: newest first, by actor, action, type and time,
    // and its CSV export.
    for (const [path, accept] of [
      ["audit_log?order=created_at.desc,seq.desc&limit=50", "application/json"],
      ["audit_log?actor=ilike.*plans*&order=created_at.desc&limit=50", "application/json"],
      ["audit_log?action=eq.login&order=created_at.desc&limit=50", "application/json"],
      [`audit_log?log_type=eq.workspace&created_at=gte.${today}&order=created_at.desc`, "text/csv"],
    ])
      expect(
        (
          await fetch(`${server.url}/rest/v1/${path}`, {
            headers: { ...asAdmin, accept: accept!, prefer: "count=exact" },
          })
        ).ok,
      ).toBe(true);

    // The Team tab: the team read, an address invited, an account added, a role changed, a
    // member taken off the team, and a member's second factor reset.
    expect(
      (await fetch(`${server.url}/rest/v1/team_accounts?order=email`, { headers: asAdmin })).status,
    ).toBe(200);
    const added = await confirmedUser("plans-team-added");
    const invited = uniqueEmail("plans-team-invited");
    for (const email of [invited, added.email])
      expect(
        (
          await fetch(`${server.url}/rest/v1/team_accounts`, {
            method: "POST",
            headers: asAdmin,
            body: JSON.stringify({ email, role: "member", note: "Plans" }),
          })
        ).status,
      ).toBe(201);
    const teamIds = await raw.query<{ id: string; email: string }>(
      "SELECT id, email FROM auth.users WHERE email = ANY($1::text[])",
      [[added.email, invited]],
    );
    const idOf = (email: string) => teamIds.find((r) => r.email === email)!.id;
    for (const [method, email] of [
      ["PATCH", added.email],
      ["DELETE", invited],
    ] as const)
      expect(
        (
          await fetch(`${server.url}/rest/v1/team_accounts?id=eq.${idOf(email)}`, {
            method,
            headers: asAdmin,
            body: method === "PATCH" ? JSON.stringify({ role: "admin" }) : undefined,
          })
        ).status,
      ).toBe(204);
    const reset = await fetch(`${server.url}/rest/v1/rpc/reset_member_factors`, {
      method: "POST",
      headers: asAdmin,
      body: JSON.stringify({ user_id: idOf(added.email) }),
    });
    expect(await reset.json()).toBe(true);
    // The team's time zone read and changed.
    expect((await fetch(`${server.url}/rest/v1/team_settings`, { headers: asAdmin })).status).toBe(
      200,
    );
    expect(
      (
        await fetch(`${server.url}/rest/v1/team_settings`, {
          method: "PATCH",
          headers: asAdmin,
          body: JSON.stringify({ time_zone: "Europe/Berlin" }),
        })
      ).status,
    ).toBe(204);

    // REST inserts and the lead functions (proof of work, replay guard, team emails).
    await insert("newsletter_subscribers", { email: uniqueEmail("news") });
    await insert("demo_requests", { email: "ops@lumen-freight.example" });
    for (const [name, { body }] of Object.entries(LEAD_FORMS)) {
      const res = await fetch(`${server.url}/functions/v1/${name}`, {
        method: "POST",
        headers: {
          apikey: server.anonKey,
          authorization: `Bearer ${server.anonKey}`,
          "content-type": "application/json",
          "x-forwarded-for": uniqueIp(),
        },
        body: JSON.stringify({ ...body, captcha: await solvedPayload(server.url) }),
      });
      expect(res.status).toBe(200);
    }

    // The newsletter: a sign-up confirmed by its link's POST (its webhook events queued then); a
    // known address signing up again (its confirmation sent again: the address was stored
    // without one); one-click unsubscribe; the workspace's list; the deletion of unconfirmed
    // addresses.
    const subscriber = uniqueEmail("subscriber");
    await insert("newsletter_subscribers", { email: subscriber });
    const confirmation = await emailTo(
      smtp,
      subscriber,
      "Confirm your Revwise newsletter subscription",
    );
    const newsletterLink = (path: string) =>
      new RegExp(`https?://\\S+${path}\\?token=\\S+`).exec(confirmation.text ?? "")![0];
    expect((await fetch(newsletterLink("/newsletter/confirm"), { method: "POST" })).status).toBe(
      200,
    );
    const returning = uniqueEmail("returning");
    await raw.query("INSERT INTO public.newsletter_subscribers (email) VALUES ($1)", [returning]);
    await insert("newsletter_subscribers", { email: returning }, 409); // "Already subscribed"
    await emailTo(smtp, returning, "Confirm your Revwise newsletter subscription");
    expect(
      (await fetch(newsletterLink("/newsletter/unsubscribe"), { method: "POST" })).status,
    ).toBe(200);
    // The newsletter sent: an issue written, changed, previewed, test-sent and scheduled now;
    // the sender queues its copies and records their outcome; a copy's one-click unsubscribe;
    // the provider's bounce; the archive; the team's unsubscription and deletion of an address.
    const rest = (pathname: string, method: string, body?: unknown) =>
      fetch(`${server.url}/rest/v1/${pathname}`, {
        method,
        headers: {
          ...asMember,
          "content-type": "application/json",
          prefer: "return=representation",
          accept: "application/vnd.pgrst.object+json",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const newsReader = uniqueEmail("news-reader");
    await raw.query(
      "INSERT INTO public.newsletter_subscribers (email, status, confirmed_at) VALUES ($1, 'subscribed', now())",
      [newsReader],
    );
    const issue = (await (
      await rest("newsletter_issues", "POST", { subject: "Plans", body: "First" })
    ).json()) as { id: string };
    expect(
      (await rest(`newsletter_issues?id=eq.${issue.id}`, "PATCH", { body: "# Plans" })).status,
    ).toBe(200);
    for (const fn of ["preview_issue", "send_test_issue"])
      expect((await rest(`rpc/${fn}`, "POST", { issue_id: issue.id })).status).toBe(200);
    const sent = await rest(`newsletter_issues?id=eq.${issue.id}`, "PATCH", {
      status: "scheduled",
      send_at: new Date().toISOString(),
    });
    expect(sent.status).toBe(200);
    await ran("UPDATE public.newsletter_issues\n       SET queued_up_to");
    const copy = await smtp.waitFor((m) => addressOf(m) === newsReader && m.subject === "Plans");
    await ran("public.newsletter_sends s SET sent_at = o.sent_at");
    const issueUnsubscribe = new RegExp(
      `https?://\\S+/newsletter/unsubscribe\\?token=\\S+&issue=\\S+`,
    ).exec(copy.text ?? "")![0];
    expect((await fetch(issueUnsubscribe, { method: "POST" })).status).toBe(200);
    expect(
      (
        await fetch(`${server.url}/newsletter/provider-events`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${EVENTS_SECRET}` },
          body: JSON.stringify({ type: "bounce", email: newsReader, message_id: copy.messageId }),
        })
      ).status,
    ).toBe(204);
    const [numbered] = await raw.query<{ number: number }>(
      "SELECT number FROM public.newsletter_issues WHERE id = $1",
      [issue.id],
    );
    for (const page of ["/newsletter", `/newsletter/${numbered!.number}`])
      expect((await fetch(`${server.url}${page}`)).status).toBe(200);
    expect((await rest(`newsletter_issues?id=eq.${issue.id}&select=*`, "GET")).status).toBe(200);
    const [{ id: subscriberId }] = (await raw.query<{ id: string }>(
      "SELECT id FROM public.newsletter_subscribers WHERE email = $1",
      [returning],
    )) as [{ id: string }];
    for (const fn of ["unsubscribe_subscriber", "delete_subscriber"])
      expect((await rest(`rpc/${fn}`, "POST", { subscriber_id: subscriberId })).status).toBe(200);
    // The hourly deletions (platform/retention.ts), each run once more here.
    await deleteUnconfirmed(db);
    await deleteExpiredLeads(db);
    await deleteExpiredAuditEntries(db);
    await cleanUpSignIns(db, { anonymousEnabled: true });
    await deleteOldTextMessages(db);
    expect(
      (
        await fetch(`${server.url}/rest/v1/subscribers?select=*&order=created_at.desc&limit=50`, {
          headers: { apikey: server.anonKey, authorization: `Bearer ${raised.access_token}` },
        })
      ).status,
    ).toBe(200);
    // The team's digests of the leads above (no interval, so nothing to wait for: the leads were
    // stored before the digests' transactions start).
    const digestConfig = { ...server.app.config, leadDigestMs: 0 };
    await raw.query("UPDATE mail.lead_digests SET sent_at = NULL");
    for (const digest of DIGESTS)
      await runDigest(db, digest, digestConfig, digestConfig.teamTimeZone);
    await ran("UPDATE mail.lead_digests SET covered_until");
    // Each member's due-leads email of the day (the lead above is due today, its owner the reader).
    await runDueReminders(
      db,
      server.app.config,
      server.app.config.teamTimeZone,
      new Date(`${today}T23:00:00Z`),
    );

    // Mail: delivered, then refused while the SMTP peer is down (the email is released).
    await ran("sent_at = now()");
    smtp.behave({ delayMs: 600 }); // a slow peer: the claim is renewed during the send
    await insert("demo_requests", { email: "cto@lumen-freight.example" });
    await ran("locked_until = now() + make_interval(secs => $3)");
    smtp.behave({});
    await smtp.stop();
    await insert("demo_requests", { email: "sales@lumen-freight.example" });
    await ran("last_error = COALESCE(");
    await smtp.start();

    // Webhooks: the leads above delivered; a slow receiver (the claim renewed during the request),
    // a refusal (retried later), a resend; the environment's endpoint disabled when its variable
    // is gone (what the next start does).
    await ran("delivered_at = now()");
    receiver.answer(() => ({ status: 204, delayMs: 600 }));
    await insert("demo_requests", { email: "hook-slow@lumen-freight.example" });
    await ran("UPDATE public.webhook_deliveries SET locked_until");
    receiver.answer(() => ({ status: 500 }));
    await insert("demo_requests", { email: "hook-refused@lumen-freight.example" });
    await ran("last_status = COALESCE(");
    receiver.answer(undefined);
    const [delivered] = await raw.query<{ id: string }>(
      "SELECT id FROM public.webhook_deliveries WHERE delivered_at IS NOT NULL LIMIT 1",
    );
    expect(await server.app.webhooks.resend(delivered!.id)).toBe(true);
    await syncEnvEndpoint(db, new SecretBox(crypto.createSecretKey(Buffer.alloc(32))), undefined);
    // A secret written in plain by hand, sealed as the next start does.
    await raw.query(
      "INSERT INTO public.webhook_endpoints (url, secret, enabled) VALUES ('https://crm.example/plain', $1, false)",
      [`whsec_${Buffer.alloc(24).toString("base64")}`],
    );
    await sealPlainSecrets(db, new SecretBox(crypto.createSecretKey(Buffer.alloc(32))));

    // The dev mailbox: the list and one message.
    const [message] = await raw.query<{ id: string }>("SELECT id FROM mail.outbox LIMIT 1");
    expect((await fetch(`${server.url}/_dev/mailbox`)).status).toBe(200);
    expect((await fetch(`${server.url}/_dev/mailbox/${message!.id}`)).status).toBe(200);

    // A scrape of /metrics: the queues, the digests due (read from the database at each scrape).
    const scrape = await fetch(server.app.metricsUrl!);
    expect(await scrape.text()).toContain("revwise_queue_oldest_waiting_seconds");

    explain = new pg.Client({ connectionString: testDb.url });
    await explain.connect();
    await explain.query("SET enable_seqscan = off");
  }, 60_000);

  afterAll(async () => {
    await explain?.end();
    await server?.close();
    await smtp?.stop();
    await receiver?.stop();
    await idp?.close();
    await raw?.close();
    await testDb?.drop();
  });

  it("plans every statement the server ran without reading a whole table", async () => {
    const whole: string[] = [];
    let planned = 0;
    for (const [sql, params] of noted) {
      if (/^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i.test(sql)) continue;
      const { rows } = await explain.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
        `EXPLAIN (FORMAT JSON) ${sql}`,
        params as unknown[],
      );
      planned += 1;
      if (sql.includes(WHOLE_TABLE_MARK)) continue;
      const reads = wholeReads(rows[0]!["QUERY PLAN"][0]!.Plan);
      if (reads.length) whole.push(`${reads.join(", ")}: ${normalise(sql)}`);
    }
    expect(planned).toBeGreaterThan(40);
    expect(whole).toEqual([]);
  });

  it("indexes every foreign key that points at a table rows are deleted from", async () => {
    const deletedFrom = new Set(
      [...noted.keys()].flatMap((sql) =>
        [...sql.matchAll(/DELETE FROM ([\w.]+)/gi)].map((m) => m[1]!),
      ),
    );
    expect(deletedFrom.size).toBeGreaterThan(3);
    // Each foreign key into those tables, and whether an index leads with its columns.
    const { rows } = await explain.query<{ fk: string; indexed: boolean }>(
      `SELECT c.conrelid::regclass || ' (' || c.conname || ')' AS fk,
         EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid
           AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] = c.conkey) AS indexed
       FROM pg_constraint c
       WHERE c.contype = 'f' AND c.confrelid = ANY($1::regclass[])`,
      [[...deletedFrom]],
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => !r.indexed).map((r) => r.fk)).toEqual([]);
  });

  it("ran every statement written in server/ (so each one was planned above)", () => {
    const ranSql = [...noted.keys()].map(normalise);
    const statements = statementsInSources();
    expect(statements.length).toBeGreaterThan(40);
    const notRun = statements.filter(({ sql }) => !ranSql.some((r) => r.includes(sql)));
    expect(notRun).toEqual([]);
  });
});
