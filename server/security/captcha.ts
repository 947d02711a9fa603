// "I'm not a robot": a self-hosted proof of work (ALTCHA v2, PBKDF2). Challenges are signed and
// expire; a solution is verified by HMAC and accepted once (its nonce is recorded with the lead it
// stores, see redeem()). Nothing leaves our servers.
import {
  createChallenge,
  randomInt,
  verifySolution,
  type Challenge,
  type Payload,
} from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import type { KeyObject } from "node:crypto";
import type { Queryable } from "../db/database.ts";

export type CaptchaOptions = {
  /** PBKDF2 iterations per attempt. */
  cost: number;
  /** The solution counter is drawn from [counterMin, counterMax]: the expected number of attempts. */
  counterMin: number;
  counterMax: number;
  ttlSeconds: number;
  /** The time in milliseconds that challenges are stamped with and checked against. */
  now: () => number;
};

/**
 * Tuned so a mid-range phone solves in about a second with the widget's workers, while each
 * submission costs a bot about 2-5 M PBKDF2-SHA256 iterations.
 */
export const DEFAULT_CAPTCHA_OPTIONS: CaptchaOptions = {
  cost: 1000,
  counterMin: 2000,
  counterMax: 5000,
  ttlSeconds: 600,
  now: Date.now,
};

type CaptchaVerdict =
  | { ok: true; nonce: string; expiresAt: Date }
  | {
      ok: false;
      reason:
        "missing" | "malformed" | "expired" | "invalid_signature" | "invalid_solution" | "replayed";
    };

export class Captcha {
  private readonly signatureSecret: string;
  private readonly keySignatureSecret: string;

  private readonly opts: CaptchaOptions;

  constructor(key: KeyObject, opts: CaptchaOptions = DEFAULT_CAPTCHA_OPTIONS) {
    this.opts = opts;
    const secret = key.export();
    this.signatureSecret = secret.subarray(0, 16).toString("hex");
    this.keySignatureSecret = secret.subarray(16).toString("hex");
  }

  challenge(): Promise<Challenge> {
    return createChallenge({
      algorithm: "PBKDF2/SHA-256",
      cost: this.opts.cost,
      counter: randomInt(this.opts.counterMin, this.opts.counterMax),
      deriveKey,
      expiresAt: new Date(this.opts.now() + this.opts.ttlSeconds * 1000),
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySignatureSecret,
    });
  }

  /** Checks the widget's payload (base64 JSON {challenge, solution}); does not redeem it. */
  async verify(payload: unknown): Promise<CaptchaVerdict> {
    if (typeof payload !== "string" || payload === "") return { ok: false, reason: "missing" };
    const parsed = parsePayload(payload);
    if (!parsed) return { ok: false, reason: "malformed" };
    // Expiry by our clock, before the library's own check by the wall clock (a challenge expires
    // at the same moment by both, except in a test that moves our clock on).
    const { nonce, expiresAt } = parsed.challenge.parameters;
    if (typeof expiresAt === "number" && expiresAt * 1000 < this.opts.now())
      return { ok: false, reason: "expired" };
    const result = await verifySolution({
      challenge: parsed.challenge,
      solution: parsed.solution,
      deriveKey,
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySignatureSecret,
    }).catch(() => undefined);
    if (!result) return { ok: false, reason: "malformed" };
    if (result.expired) return { ok: false, reason: "expired" };
    if (result.invalidSignature) return { ok: false, reason: "invalid_signature" };
    if (!result.verified) return { ok: false, reason: "invalid_solution" };
    return {
      ok: true,
      nonce,
      expiresAt: new Date(
        expiresAt !== undefined ? expiresAt * 1000 : this.opts.now() + this.opts.ttlSeconds * 1000,
      ),
    };
  }

  /**
   * Records the solution as used, inside the caller's transaction, which stores the lead too: the
   * solution is spent exactly when its lead is stored, and a store that fails (or is refused)
   * leaves it unspent. `submission` is a digest of what it is spent on. A solution used before is a
   * replay, unless it was spent on this same submission: then the lead that stored (the same
   * submission sent again because its answer was lost). One statement inserts the row or, when it
   * exists, locks it and reads its latest version: a repeat arriving while the first's
   * transaction is still open waits for it, then gets its lead, or takes the spend over when it
   * rolled back. The caller records the lead (settle()) before committing. The same statement
   * forgets redemptions whose challenge has expired (they can no longer be replayed), skipping
   * rows another transaction holds, so the table holds only live ones.
   */
  async redeem(
    tx: Queryable,
    verdict: { nonce: string; expiresAt: Date },
    submission: string,
  ): Promise<Redemption> {
    const [row] = await tx.query<{ lead_id: string | null }>(
      `WITH expired AS (
         DELETE FROM internal.captcha_redemptions WHERE nonce = ANY (ARRAY(
           SELECT nonce FROM internal.captcha_redemptions
           WHERE expires_at < now() AND nonce <> $1 FOR UPDATE SKIP LOCKED
         ))
       )
       INSERT INTO internal.captcha_redemptions AS r (nonce, expires_at, submission)
       VALUES ($1, $2, $3)
       ON CONFLICT (nonce) DO UPDATE SET nonce = r.nonce
       WHERE r.submission = $3 AND r.lead_id IS NOT NULL AND r.expires_at >= now()
       RETURNING lead_id`,
      [verdict.nonce, verdict.expiresAt, submission],
    );
    if (!row) return { kind: "replayed" };
    return row.lead_id ? { kind: "repeated", leadId: row.lead_id } : { kind: "redeemed" };
  }

  /** Records the lead a redeemed solution's submission stored (what a repeat of it is answered). */
  async settle(tx: Queryable, nonce: string, leadId: string): Promise<void> {
    await tx.query("UPDATE internal.captcha_redemptions SET lead_id = $2 WHERE nonce = $1", [
      nonce,
      leadId,
    ]);
  }
}

type Redemption =
  { kind: "redeemed" } | { kind: "repeated"; leadId: string } | { kind: "replayed" };

function parsePayload(payload: string): Payload | undefined {
  if (payload.length > 4096) return undefined;
  try {
    const value = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as Payload;
    const params = value?.challenge?.parameters;
    if (!params || typeof params.nonce !== "string" || !/^[0-9a-f]{8,128}$/.test(params.nonce))
      return undefined;
    if (
      typeof value.challenge.signature !== "string" ||
      typeof value.solution !== "object" ||
      value.solution === null
    )
      return undefined;
    return value;
  } catch {
    return undefined;
  }
}
