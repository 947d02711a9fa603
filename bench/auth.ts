// npm run bench:auth: password sign-in latency (p50/p99, one request at a time) and throughput
// (concurrent requests) of POST /auth/v1/token?grant_type=password, next to two baselines measured
// in the same run, alternately with it (so all three see the same machine): one argon2id check of
// the password in this process, and a bare sign-in server (bench/bare-signin-server.ts) doing only
// the lookup, the check and the session insert. Targets: p50 ≤ 1.10 × the bare sign-in server,
// and at most 4 ms beyond the check on PostgreSQL (decision 0031). Beside it, the p50
// of POST /auth/v1/verify with a texted code (type sms; each code asked for by /otp first, untimed,
// and read from a Send SMS hook on loopback), and the p50 of an MFA verify (POST
// /factors/{id}/verify with a TOTP code, each for a new user whose factor and challenge were made
// first, untimed), and the p50 of a passkey sign-in (POST /passkeys/authentication/options, then
// /verify with an assertion a software authenticator signed in between, untimed), and the p50 of
// an external provider's callback (GET /auth/v1/callback with the provider's code: the code
// exchanged at a real OpenID provider on loopback, oidc-provider as the tests use it, the ID token
// verified, the account found, the session made) less the time the provider spent answering it.
import { verify } from "@node-rs/argon2";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stepAt, totpCode } from "../server/auth/mfa/totp.ts";
import { hashPassword } from "../server/auth/passwords.ts";
import { createTestDatabase, postgresAvailable } from "../tests/support/postgres.ts";
import { sharedDeploymentEnv, startServer } from "../tests/support/server-process.ts";
import { startIdp, type TestIdp } from "../tests/support/identity-provider.ts";
import { freePort } from "../tests/support/ports.ts";
import { startSmsHook, type TestSmsHook } from "../tests/support/sms-hook.ts";
import { SoftwareAuthenticator } from "../tests/support/software-authenticator.ts";
import { fmt, load, median, nextIp, percentile, poster, startBareServer, table } from "./lib.ts";

const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 200);
const OTP_VERIFIES = Number(process.env.BENCH_OTP_VERIFIES ?? 100);
const MFA_VERIFIES = Number(process.env.BENCH_MFA_VERIFIES ?? 50);
const PASSKEY_SIGN_INS = Number(process.env.BENCH_PASSKEY_SIGN_INS ?? 100);
const PROVIDER_CALLBACKS = Number(process.env.BENCH_PROVIDER_CALLBACKS ?? 100);
/** The relying party the passkeys are made for (its origin is where the "browser" is). */
const PASSKEY_ORIGIN = "http://localhost";
const PASSKEY_ENV = {
  GOTRUE_PASSKEY_ENABLED: "true",
  GOTRUE_WEBAUTHN_RP_ID: "localhost",
  GOTRUE_WEBAUTHN_RP_ORIGINS: PASSKEY_ORIGIN,
  GOTRUE_RATE_LIMIT_PASSKEY: "0",
};
const PASSWORD = "Benchmark-Passphrase-42";
// The bare cost: one argon2id check at the server's parameters, in this process, one at a time.
// It is measured alternately with the sign-ins (below), so both see the same machine: on a shared
// machine, measuring one after the other moves the ratio by more than the overhead itself.
const encoded = await hashPassword(PASSWORD);
const checkOnce = async () => {
  const t = performance.now();
  await verify(encoded, PASSWORD);
  return performance.now() - t;
};
for (let i = 0; i < 5; i++) await checkOnce();

/**
 * POST /verify of a texted code, one at a time, each for a new number (its code asked for by
 * /otp first, untimed): the times in ms.
 */
async function otpVerifyTimes(url: string, anonKey: string, hook: TestSmsHook, engine: string) {
  const post = (path: string, body: object) =>
    fetch(`${url}/auth/v1${path}`, {
      method: "POST",
      headers: { apikey: anonKey, "content-type": "application/json", "x-forwarded-for": nextIp() },
      body: JSON.stringify(body),
    });
  const times: number[] = [];
  for (let i = 0; i < OTP_VERIFIES; i++) {
    const phone = `1555${engine.length}${String(i).padStart(9, "0")}`;
    const asked = await post("/otp", { phone });
    if (!asked.ok) throw new Error(`${engine}: /otp answered ${asked.status}`);
    const token = (await hook.waitFor(phone)).sms.otp;
    const t = performance.now();
    const verified = await post("/verify", { type: "sms", phone, token });
    await verified.arrayBuffer();
    times.push(performance.now() - t);
    if (!verified.ok) throw new Error(`${engine}: /verify answered ${verified.status}`);
  }
  return times;
}

/** POST to /auth/v1 from one client address, as `token`'s user if given: the answer's JSON. */
function authPoster(url: string, anonKey: string, engine: string, ip: string) {
  return async <T>(path: string, body: object, token?: string): Promise<T> => {
    const res = await fetch(`${url}/auth/v1${path}`, {
      method: "POST",
      headers: {
        apikey: anonKey,
        "content-type": "application/json",
        "x-forwarded-for": ip,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${engine}: ${path} answered ${res.status}`);
    return (await res.json()) as T;
  };
}

/**
 * POST /factors/{id}/verify with a TOTP code, one at a time, each for a new user (signed up,
 * factor enrolled and challenged first, untimed, from the address that verifies): the times in ms.
 */
async function mfaVerifyTimes(url: string, anonKey: string, engine: string) {
  const times: number[] = [];
  for (let i = 0; i < MFA_VERIFIES; i++) {
    const post = authPoster(url, anonKey, engine, nextIp());
    const email = `bench-mfa-${i}-${engine.toLowerCase()}@revwise.example`;
    const { access_token: token } = await post<{ access_token: string }>("/signup", {
      email,
      password: PASSWORD,
    });
    const factor = await post<{ id: string; totp: { secret: string } }>(
      "/factors",
      { factor_type: "totp" },
      token,
    );
    const challenge = await post<{ id: string }>(`/factors/${factor.id}/challenge`, {}, token);
    const code = totpCode(factor.totp.secret, stepAt(Date.now()));
    const t = performance.now();
    await post(`/factors/${factor.id}/verify`, { challenge_id: challenge.id, code }, token);
    times.push(performance.now() - t);
  }
  return times;
}

/**
 * Passkey sign-ins, one at a time, by one user's passkey (registered first, untimed): each the
 * options request and the verify request, timed together; the assertion between them is signed
 * untimed. The times in ms.
 */
async function passkeySignInTimes(url: string, anonKey: string, engine: string) {
  const post = authPoster(url, anonKey, engine, nextIp());
  type Options = { challenge_id: string; options: never };
  const email = `bench-passkey-${engine.toLowerCase()}@revwise.example`;
  const { access_token: token } = await post<{ access_token: string }>("/signup", {
    email,
    password: PASSWORD,
  });
  const authenticator = new SoftwareAuthenticator(PASSKEY_ORIGIN);
  const registration = await post<Options>("/passkeys/registration/options", {}, token);
  await post(
    "/passkeys/registration/verify",
    {
      challenge_id: registration.challenge_id,
      credential: authenticator.create(registration.options),
    },
    token,
  );
  const times: number[] = [];
  for (let i = 0; i < PASSKEY_SIGN_INS; i++) {
    const started = performance.now();
    const options = await post<Options>("/passkeys/authentication/options", {});
    const asked = performance.now() - started;
    const credential = authenticator.get(options.options);
    const signing = performance.now();
    await post("/passkeys/authentication/verify", {
      challenge_id: options.challenge_id,
      credential,
    });
    times.push(asked + performance.now() - signing);
  }
  return times;
}

/**
 * Sign-ins at an external OpenID provider, one at a time, by one person there (their account made
 * by the first, untimed): GET /authorize and the provider's login untimed, then our callback timed,
 * less the time the provider spent answering during it (the code's exchange, its keys when asked):
 * the times in ms beyond the provider's answer.
 */
async function providerCallbackTimes(url: string, idp: TestIdp, engine: string) {
  const subject = `bench-${engine.toLowerCase()}`;
  idp.accounts.set(subject, { email: `${subject}@revwise.example`, email_verified: true });
  const callbackUrl = async () => {
    const res = await fetch(
      `${url}/auth/v1/authorize?provider=keycloak&redirect_to=${encodeURIComponent(url)}`,
      { redirect: "manual", headers: { "x-forwarded-for": nextIp() } },
    );
    if (res.status !== 302) throw new Error(`${engine}: /authorize answered ${res.status}`);
    return idp.signIn(res.headers.get("location")!, subject);
  };
  const times: number[] = [];
  for (let i = -5; i < PROVIDER_CALLBACKS; i++) {
    const callback = await callbackUrl();
    const providerBefore = idp.busyMs();
    const t = performance.now();
    const res = await fetch(callback, {
      redirect: "manual",
      headers: { "x-forwarded-for": nextIp() },
    });
    await res.arrayBuffer();
    const elapsed = performance.now() - t;
    if (res.status !== 302 || !res.headers.get("location")?.includes("access_token="))
      throw new Error(`${engine}: the callback answered ${res.status} without a session`);
    // The first few make the account and warm the provider's keys: not counted.
    if (i >= 0) times.push(elapsed - (idp.busyMs() - providerBefore));
  }
  return times;
}

/** Sign-in latency (one at a time) and throughput (4 connections) on one engine. */
async function measure(engine: string, env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "revwise-bench-auth-"));
  const hook = await startSmsHook();
  const idp = await startIdp({ path: "/realms/bench" });
  // The provider sends the browser back to this server's own address (a loopback callback).
  const port = await freePort();
  const server = await startServer({
    ...env,
    ...hook.env,
    ...idp.env("KEYCLOAK"),
    PORT: String(port),
    GOTRUE_EXTERNAL_KEYCLOAK_REDIRECT_URI: `http://127.0.0.1:${port}/auth/v1/callback`,
    ...PASSKEY_ENV,
    GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
    RATE_LIMIT_EMAIL_SENT: "1000000",
    RATE_LIMIT_LEAD_EMAIL_SENT: "1000000",
    RATE_LIMIT_EMAIL_IP: "1000000",
    GOTRUE_RATE_LIMIT_SMS_SENT: "1000000", // one text a /otp of the timed verifications
    DATA_DIR: dataDir,
    SITE_DIR: path.join(dataDir, "no-site"),
    TRUST_PROXY: "loopback",
    MAILER_AUTOCONFIRM: "true",
    LOG_LEVEL: "info", // production's logging: a line per request
  });
  const anonKey = /anon key: ([\w.-]+)/.exec(server.logs.join("\n"))![1]!;
  const email = `bench-${engine.toLowerCase()}@revwise.example`;
  const body = JSON.stringify({ email, password: PASSWORD });
  const headers = { apikey: anonKey, "content-type": "application/json" };
  await fetch(`${server.url}/auth/v1/signup`, {
    method: "POST",
    headers: { ...headers, "x-forwarded-for": nextIp() },
    body,
  });
  const bareEmail = `bare-${engine.toLowerCase()}@revwise.example`;
  const bare = await startBareServer("bench/bare-signin-server.ts", {
    args: [bareEmail, PASSWORD],
    env: { ...env, DATA_DIR: path.join(dataDir, "bare") },
  });
  const withIp = ((req: { headers?: Record<string, string> }) => ({
    ...req,
    body,
    headers: { ...req.headers, "x-forwarded-for": nextIp() },
  })) as never;
  const url = `${server.url}/auth/v1/token?grant_type=password`;
  const ours = poster(url, body, headers);
  const bareSignIn = poster(
    `${bare.url}/signin`,
    JSON.stringify({ email: bareEmail, password: PASSWORD }),
    { "content-type": "application/json" },
  );
  for (let i = 0; i < 30; i++) await Promise.all([ours.timed(), bareSignIn.timed()]); // warm-up
  const hashTimes: number[] = [];
  const bareTimes: number[] = [];
  const times: number[] = [];
  for (let i = 0; i < SIGN_INS; i++) {
    hashTimes.push(await checkOnce());
    bareTimes.push(await bareSignIn.timed());
    times.push(await ours.timed());
  }
  ours.close();
  bareSignIn.close();
  bare.close();
  const p50 = median;
  // Each sign-in less the check measured just before it: the server's own cost in milliseconds,
  // which does not scale with the machine's hash speed as the ratio does.
  const beyond = (series: number[]) => series.map((t, i) => t - hashTimes[i]!);
  const hashP50 = p50(hashTimes);
  const bareP50 = p50(bareTimes);
  const sequential = { p50: p50(times), p99: percentile(times, 99) };
  const concurrent = await load({
    url,
    method: "POST",
    connections: 4,
    durationSeconds: Number(process.env.BENCH_SECONDS ?? 10),
    headers,
    setupRequest: withIp,
  });
  const otpTimes = await otpVerifyTimes(server.url, anonKey, hook, engine);
  const mfaTimes = await mfaVerifyTimes(server.url, anonKey, engine);
  const passkeyTimes = await passkeySignInTimes(server.url, anonKey, engine);
  const callbackTimes = await providerCallbackTimes(server.url, idp, engine);
  await server.stop();
  await hook.stop();
  await idp.close();
  if (concurrent.non2xx || concurrent.errors)
    throw new Error(`${engine}: sign-ins failed under load`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  return [
    { engine, measure: `one argon2id check, p50 (${SIGN_INS})`, value: `${fmt(hashP50, 1)} ms` },
    {
      engine,
      measure: "bare sign-in (lookup, check, insert), p50",
      value: `${fmt(bareP50, 1)} ms = ${fmt(bareP50 / hashP50, 2)} × one check`,
    },
    {
      engine,
      measure: "Revwise sign-in, p50 / p99",
      value: `${fmt(sequential.p50, 1)} ms / ${fmt(sequential.p99, 1)} ms`,
    },
    {
      engine,
      measure: "Revwise p50 / one check",
      value: `${fmt(sequential.p50 / hashP50, 2)} ×`,
    },
    {
      engine,
      measure: "Revwise p50 / bare sign-in p50 (target ≤ 1.10 ×)",
      value: `${fmt(sequential.p50 / bareP50, 2)} ×`,
    },
    {
      engine,
      measure: "time beyond the check, p50 of paired runs (target ≤ 4 ms on PostgreSQL)",
      value: `Revwise ${fmt(median(beyond(times)), 1)} ms, bare ${fmt(median(beyond(bareTimes)), 1)} ms`,
    },
    {
      engine,
      measure: "Revwise throughput (4 connections)",
      value: `${fmt(concurrent.rps, 1)} /s (p50 ${concurrent.p50} ms)`,
    },
    {
      engine,
      measure: `OTP verify (texted code), p50 (${OTP_VERIFIES})`,
      value: `${fmt(p50(otpTimes), 1)} ms`,
    },
    {
      engine,
      measure: `MFA verify (TOTP code), p50 (${MFA_VERIFIES})`,
      value: `${fmt(p50(mfaTimes), 1)} ms`,
    },
    {
      engine,
      measure: `passkey sign-in (options + verify), p50 (${PASSKEY_SIGN_INS})`,
      value: `${fmt(p50(passkeyTimes), 1)} ms`,
    },
    {
      engine,
      measure: `provider callback beyond the provider's answer, p50 (${PROVIDER_CALLBACKS})`,
      value: `${fmt(p50(callbackTimes), 1)} ms`,
    },
  ];
}

const rows: { engine: string; measure: string; value: string }[] = [];
rows.push(...(await measure("PGlite", {})));
if (await postgresAvailable()) {
  const database = await createTestDatabase();
  rows.push(...(await measure("PostgreSQL", sharedDeploymentEnv(database.url))));
  await database.drop();
}
console.log(`Revwise sign-in benchmark · ${os.cpus().length} cores · argon2id m=19456 t=2 p=1\n`);
table(rows);
