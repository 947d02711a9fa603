// The server's signing secret, the public anon key and the secret service-role key derived from it.
// JWT_SECRET when given; otherwise a secret generated once into DATA_DIR and reused on restart.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { makeDataDir } from "../db/data-dir.ts";
import { signJwt } from "./tokens.ts";

export type Keys = {
  /** HS256 secret for access tokens and the anon key. */
  jwtSecret: Uint8Array;
  /** The public anon key: an HS256 JWT {role: "anon", iss: "supabase"}. */
  anonKey: string;
  /**
   * The service-role key ({role: "service_role"}): the admin API's credential. A secret like
   * JWT_SECRET: never logged, never sent to a browser.
   */
  serviceRoleKey: string;
  /**
   * Derives an independent key for another purpose (captcha HMAC, token hashing…). A KeyObject:
   * an HMAC or cipher under it uses the key as it is, where a Buffer would be converted each call
   * (7 µs when warm, about 0.1 ms on a request's path after a pause).
   */
  derive(purpose: string): crypto.KeyObject;
};

const SECRET_FILE = "jwt-secret";
const TEN_YEARS = 10 * 365 * 24 * 3600;

export async function loadKeys(opts: {
  jwtSecret: string | undefined;
  dataDir: string;
}): Promise<Keys> {
  const secret = opts.jwtSecret ?? (await readOrCreateSecret(opts.dataDir));
  const jwtSecret = new TextEncoder().encode(secret);
  return {
    jwtSecret,
    anonKey: mintApiKey(jwtSecret, "anon"),
    serviceRoleKey: mintApiKey(jwtSecret, "service_role"),
    derive: (purpose) =>
      crypto.createSecretKey(
        Buffer.from(crypto.hkdfSync("sha256", jwtSecret, Buffer.alloc(0), purpose, 32)),
      ),
  };
}

/**
 * An API key as Supabase mints them: an HS256 JWT of the role, valid for ten years. It is issued
 * as of the first second of the current year (UTC), so every instance of a deployment, whenever
 * it started that year, mints the same key: the pages that carry it are the same bytes.
 */
export function mintApiKey(
  secret: Uint8Array,
  role: "anon" | "service_role",
  now = Date.now() / 1000,
): string {
  const iat = Date.UTC(new Date(now * 1000).getUTCFullYear(), 0, 1) / 1000;
  return signJwt({ role, iss: "supabase", iat, exp: iat + TEN_YEARS }, secret);
}

async function readOrCreateSecret(dataDir: string): Promise<string> {
  const file = path.join(await makeDataDir(dataDir), SECRET_FILE);
  try {
    return (await fs.readFile(file, "utf8")).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const secret = crypto.randomBytes(48).toString("base64url");
  try {
    // "wx": if another process created it first, keep theirs.
    await fs.writeFile(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST")
      return (await fs.readFile(file, "utf8")).trim();
    throw err;
  }
}
