// MFA factors and their challenges: TOTP factors with their secret encrypted at rest
// (security/secret-box.ts), a challenge per attempt. The sessions a factor raises to aal2 are the
// sessions model's (sessions.ts raiseToAal2, lowerToAal1).
import { isUniqueViolation, type Queryable } from "../../db/database.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { deleteRecoveryCodes } from "./recovery-codes.ts";

export type FactorRow = {
  id: string;
  user_id: string;
  friendly_name: string;
  factor_type: "totp" | "phone";
  status: "unverified" | "verified";
  secret: string | null;
  phone: string | null;
  last_used_step: string | null;
  last_challenged_at: Date | null;
  /** Wrong answers in a row, and the lock they put on the factor (models/wrong-codes.ts). */
  failed_attempts: number;
  locked_until: Date | null;
  created_at: Date;
  updated_at: Date;
};

export type ChallengeRow = {
  id: string;
  factor_id: string;
  ip_address: string | null;
  /** A phone challenge's code, sealed (as TOTP secrets are). */
  otp_code: string | null;
  /** Wrong answers to it: it dies at WRONG_TRIES (models/wrong-codes.ts). */
  failed_attempts: number;
  created_at: Date;
  verified_at: Date | null;
};

export function listFactors(q: Queryable, userId: string): Promise<FactorRow[]> {
  return q.query<FactorRow>(
    "SELECT * FROM auth.mfa_factors WHERE user_id = $1 ORDER BY created_at",
    [userId],
  );
}

export async function findFactor(
  q: Queryable,
  userId: string,
  id: string,
  lock = false,
): Promise<FactorRow | undefined> {
  const [row] = await q.query<FactorRow>(
    `SELECT * FROM auth.mfa_factors WHERE id = $1 AND user_id = $2${lock ? " FOR UPDATE" : ""}`,
    [id, userId],
  );
  return row;
}

export function createTotpFactor(
  q: Queryable,
  opts: { userId: string; friendlyName: string; sealedSecret: string },
): Promise<FactorRow> {
  return insertFactor(q, opts, { type: "totp", column: "secret", value: opts.sealedSecret });
}

/**
 * A phone factor for the number; the user's unverified factors for the same number go (a new
 * enrolment replaces an abandoned one).
 */
export async function createPhoneFactor(
  q: Queryable,
  opts: { userId: string; friendlyName: string; phone: string },
): Promise<FactorRow> {
  await q.query(
    "DELETE FROM auth.mfa_factors WHERE user_id = $1 AND phone = $2 AND status = 'unverified'",
    [opts.userId, opts.phone],
  );
  return insertFactor(q, opts, { type: "phone", column: "phone", value: opts.phone });
}

/**
 * Deletes every user's factors abandoned during enrolment: unverified, never challenged, created
 * more than `seconds` ago (GoTrue's DeleteExpiredFactors).
 */
export async function deleteExpiredFactors(q: Queryable, seconds: number): Promise<void> {
  await q.query(
    `DELETE FROM auth.mfa_factors f WHERE f.status = 'unverified'
       AND f.created_at < now() - make_interval(secs => $1)
       AND NOT EXISTS (SELECT 1 FROM auth.mfa_challenges c WHERE c.factor_id = f.id)`,
    [seconds],
  );
}

/** Whether the user has a verified factor (MFA is on for them). */
export async function hasVerifiedFactor(q: Queryable, userId: string): Promise<boolean> {
  const [row] = await q.query<{ on: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM auth.mfa_factors WHERE user_id = $1 AND status = 'verified') AS on",
    [userId],
  );
  return row!.on;
}

/** A new factor; a friendly name the user already gave another factor is GoTrue's 422. */
async function insertFactor(
  q: Queryable,
  opts: { userId: string; friendlyName: string },
  factor:
    | { type: "totp"; column: "secret"; value: string }
    | { type: "phone"; column: "phone"; value: string },
): Promise<FactorRow> {
  try {
    const [row] = await q.query<FactorRow>(
      `INSERT INTO auth.mfa_factors (user_id, friendly_name, factor_type, ${factor.column})
       VALUES ($1, $2, $3, $4) RETURNING *`,
      [opts.userId, opts.friendlyName, factor.type, factor.value],
    );
    return row!;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new AuthError(
      422,
      ErrorCode.mfa_factor_name_conflict,
      `A factor with the friendly name "${opts.friendlyName}" for this user already exists`,
    );
  }
}

/** A challenge of the factor from this address: the factor is stamped as challenged now. */
export async function createChallenge(
  q: Queryable,
  factorId: string,
  ip: string,
): Promise<ChallengeRow> {
  const [row] = await q.query<ChallengeRow>(
    `WITH c AS (INSERT INTO auth.mfa_challenges (factor_id, ip_address) VALUES ($1, $2) RETURNING *),
       f AS (UPDATE auth.mfa_factors SET last_challenged_at = now() WHERE id = $1)
     SELECT * FROM c`,
    [factorId, ip],
  );
  return row!;
}

/**
 * A phone factor's challenge from this address, with its code sealed. Its stamp is the interval
 * claimed before it (sent-stamps.ts), not set here.
 */
export async function createPhoneChallenge(
  q: Queryable,
  factorId: string,
  ip: string,
  sealedCode: string,
): Promise<ChallengeRow> {
  const [row] = await q.query<ChallengeRow>(
    "INSERT INTO auth.mfa_challenges (factor_id, ip_address, otp_code) VALUES ($1, $2, $3) RETURNING *",
    [factorId, ip, sealedCode],
  );
  return row!;
}

export async function findChallenge(
  q: Queryable,
  factorId: string,
  id: string,
): Promise<ChallengeRow | undefined> {
  const [row] = await q.query<ChallengeRow>(
    "SELECT * FROM auth.mfa_challenges WHERE id = $1 AND factor_id = $2 FOR UPDATE",
    [id, factorId],
  );
  return row;
}

export async function countWrongChallengeAnswer(q: Queryable, id: string): Promise<void> {
  await q.query(
    "UPDATE auth.mfa_challenges SET failed_attempts = failed_attempts + 1 WHERE id = $1",
    [id],
  );
}

export async function deleteChallenge(q: Queryable, id: string): Promise<void> {
  await q.query("DELETE FROM auth.mfa_challenges WHERE id = $1", [id]);
}

/** The amr method of a factor's type: GoTrue's names. */
const AMR_METHODS = new Map<FactorRow["factor_type"], string>([
  ["totp", "totp"],
  ["phone", "mfa/phone"],
]);
export const amrMethodOf = (factor: FactorRow) => AMR_METHODS.get(factor.factor_type)!;

/**
 * A code of `step` answered the challenge: the challenge is used, the factor verified (its step
 * recorded, its wrong answers in a row forgotten), and the user's other unverified factors of the
 * same type go. The session it was answered in is raised by sessions.ts raiseToAal2.
 */
export async function completeChallenge(
  q: Queryable,
  /** `step`: the TOTP step the code was of (none for a phone code). */
  opts: { challenge: ChallengeRow; factor: FactorRow; step: number | null },
): Promise<void> {
  const { challenge, factor, step } = opts;
  await q.query("UPDATE auth.mfa_challenges SET verified_at = now() WHERE id = $1", [challenge.id]);
  await q.query(
    `UPDATE auth.mfa_factors SET status = 'verified', last_used_step = coalesce($2, last_used_step),
       failed_attempts = 0, locked_until = NULL, updated_at = now()
     WHERE id = $1`,
    [factor.id, step],
  );
  // The user's other unverified factors of this type go (GoTrue's DeleteUnverifiedFactors).
  await q.query(
    "DELETE FROM auth.mfa_factors WHERE user_id = $1 AND factor_type = $2 AND status = 'unverified'",
    [factor.user_id, factor.factor_type],
  );
}

/**
 * Removes a factor; the sessions it raised are lowered first (sessions.ts lowerToAal1). With the
 * user's last verified factor go their recovery codes.
 */
/** Whether this call removed it (of two at the same moment, one does). */
export async function deleteFactor(q: Queryable, factor: FactorRow): Promise<boolean> {
  const gone = await q.query("DELETE FROM auth.mfa_factors WHERE id = $1 RETURNING id", [
    factor.id,
  ]);
  if (!(await hasVerifiedFactor(q, factor.user_id))) await deleteRecoveryCodes(q, factor.user_id);
  return gone.length > 0;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : undefined);

/** GoTrue's Factor JSON (never the secret). */
export function serializeFactor(factor: FactorRow) {
  return {
    id: factor.id,
    friendly_name: factor.friendly_name,
    factor_type: factor.factor_type,
    status: factor.status,
    ...(factor.phone ? { phone: factor.phone } : {}),
    created_at: iso(factor.created_at),
    updated_at: iso(factor.updated_at),
    ...(factor.last_challenged_at ? { last_challenged_at: iso(factor.last_challenged_at) } : {}),
  };
}

/** The user's factors as the User JSON lists them. */
export async function factorsJson(q: Queryable, userId: string) {
  return (await listFactors(q, userId)).map(serializeFactor);
}
