import fs from "node:fs";
import path from "node:path";
import { jwtVerify, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../tests/support/app.ts";
import { loadKeys, mintApiKey } from "./keys.ts";

describe("keys", () => {
  it("generates a secret once into DATA_DIR and reuses it", async () => {
    const dir = tempDir();
    const first = await loadKeys({ jwtSecret: undefined, dataDir: dir });
    const file = path.join(dir, "jwt-secret");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const second = await loadKeys({ jwtSecret: undefined, dataDir: dir });
    expect(Buffer.from(second.jwtSecret).equals(Buffer.from(first.jwtSecret))).toBe(true);
    // A key minted by the first run is valid for the second.
    await expect(jwtVerify(first.anonKey, second.jwtSecret)).resolves.toBeTruthy();
  });

  it("uses JWT_SECRET when given and writes nothing", async () => {
    const dir = tempDir();
    const keys = await loadKeys({ jwtSecret: "x".repeat(40), dataDir: dir });
    expect(Buffer.from(keys.jwtSecret).toString()).toBe("x".repeat(40));
    expect(fs.existsSync(path.join(dir, "jwt-secret"))).toBe(false);
  });

  it("mints the anon key as an HS256 JWT {role: anon, iss: supabase} valid for years", async () => {
    const keys = await loadKeys({ jwtSecret: "y".repeat(40), dataDir: tempDir() });
    expect(decodeProtectedHeader(keys.anonKey)).toEqual({ alg: "HS256", typ: "JWT" });
    const { payload } = await jwtVerify(keys.anonKey, keys.jwtSecret, { algorithms: ["HS256"] });
    expect(payload).toMatchObject({ role: "anon", iss: "supabase" });
    expect(payload.exp! - payload.iat!).toBeGreaterThan(5 * 365 * 24 * 3600);
    // Unpadded base64url in all three parts (supabase-js checks this).
    expect(keys.anonKey).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    // Instances of one deployment started at different times serve the same key, so the pages
    // that carry it are the same bytes (and ETags) whichever instance serves them.
    const at = (iso: string) => mintApiKey(keys.jwtSecret, "anon", Date.parse(iso) / 1000);
    expect(at("2026-03-01T08:00:00Z")).toBe(at("2026-11-26T23:59:59Z"));
    expect(at("2026-11-26T23:59:59Z")).not.toBe(at("2027-01-01T00:00:01Z"));
  });

  it("derives independent keys per purpose", async () => {
    const keys = await loadKeys({ jwtSecret: "z".repeat(40), dataDir: tempDir() });
    expect(keys.derive("captcha").equals(keys.derive("captcha"))).toBe(true);
    expect(keys.derive("captcha").equals(keys.derive("tokens"))).toBe(false);
  });
});
