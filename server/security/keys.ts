// The server's signing secret and the public anon key derived from it.
// JWT_SECRET when given; otherwise a secret generated once into DATA_DIR and reused on restart.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { signJwt } from "./tokens.ts";

export type Keys = {
  /** HS256 secret for access tokens and the anon key. */
  jwtSecret: Uint8Array;
  /** The public anon key: an HS256 JWT {role: "anon", iss: "supabase"}. */
  anonKey: string;
  /** Derives an independent key for another purpose (captcha HMAC, token hashing…). */
  derive(purpose: string): Buffer;
};

const SECRET_FILE = "jwt-secret";
const TEN_YEARS = 10 * 365 * 24 * 3600;

export async function loadKeys(opts: {
  jwtSecret: string | undefined;
  dataDir: string;
}): Promise<Keys> {
  const secret = opts.jwtSecret ?? (await readOrCreateSecret(opts.dataDir));
  const jwtSecret = new TextEncoder().encode(secret);
  const anonKey = mintAnonKey(jwtSecret);
  return {
    jwtSecret,
    anonKey,
    derive: (purpose) =>
      Buffer.from(crypto.hkdfSync("sha256", jwtSecret, Buffer.alloc(0), purpose, 32)),
  };
}

export function mintAnonKey(secret: Uint8Array, now = Math.floor(Date.now() / 1000)): string {
  return signJwt({ role: "anon", iss: "supabase", iat: now, exp: now + TEN_YEARS }, secret);
}

async function readOrCreateSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, SECRET_FILE);
  try {
    return (await fs.readFile(file, "utf8")).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  await fs.mkdir(dataDir, { recursive: true });
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
