// MFA factors and their challenges: TOTP factors with their secret encrypted at rest
// (security/secret-box.ts), phone factors, WebAuthn factors (a security key or passkey: its
// credential kept once verified), a challenge per attempt. The sessions a factor raises to aal2 are the
// sessions model's (sessions.ts raiseToAal2, lowerToAal1).
import { isUniqueViolation, type Queryable } from "../../db/database.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import type { NewCredential, StoredCredential } from "../webauthn.ts";
import { deleteRecoveryCodes } from "./recovery-codes.ts";

/** A WebAuthn factor's credential as stored (its public key in base64url). */
type StoredWebAuthnCredential = {
  id: string;
  publicKey: string;
  counter: number;
  transports: string[];
  backupEligible: boolean;
  backedUp: boolean;
};

/** What a WebAuthn factor's challenge is checked against: its challenge, and which ceremony. */
export type WebAuthnSession = { challenge: string; type: "create" | "request" };

export type FactorRow = {
  id: string;
  user_id: string;
  friendly_name: string;
  factor_type: "totp" | "phone" | "webauthn";
  status: "unverified" | "verified";
  secret: string | null;
  phone: string | null;
  last_used_step: string | null;
  last_challenged_at: Date | null;
  /** Wrong answers in a row, and the lock they put on the factor (models/wrong-codes.ts). */
  failed_attempts: number;
  locked_until: Date | null;
  /** A verified WebAuthn factor's credential. */
  web_authn_credential: StoredWebAuthnCredential | null;
  web_authn_aaguid: string | null;
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
  /** A WebAuthn factor's challenge: what its answer is checked against. */
  web_authn_session_data: WebAuthnSession | null;
  created_at: Date;
  verified_at: Date | null;
};

/** A verified WebAuthn factor's credential as the ceremonies check it. */
export function factorCredential(factor: FactorRow): StoredCredential | undefined {
  const c = factor.web_authn_credential;
  if (!c) return undefined;
  return {
    id: c.id,
    publicKey: new Uint8Array(Buffer.from(c.publicKey, "base64url")) as Uint8Array<ArrayBuffer>,
    counter: c.counter,
    transports: c.transports,
  };
}

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

/** A WebAuthn factor: its credential comes with its first verification (completeChallenge). */
export function createWebAuthnFactor(
  q: Queryable,
  opts: { userId: string; friendlyName: string },
): Promise<FactorRow> {
  return insertFactor(q, opts, { type: "webauthn" });
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
    | { type: "phone"; column: "phone"; value: string }
    | { type: "webauthn" },
): Promise<FactorRow> {
  try {
    const [row] =
      "column" in factor
        ? await q.query<FactorRow>(
            `INSERT INTO auth.mfa_factors (user_id, friendly_name, factor_type, ${factor.column})
             VALUES ($1, $2, $3, $4) RETURNING *`,
            [opts.userId, opts.friendlyName, factor.type, factor.value],
          )
        : await q.query<FactorRow>(
            `INSERT INTO auth.mfa_factors (user_id, friendly_name, factor_type)
             VALUES ($1, $2, $3) RETURNING *`,
            [opts.userId, opts.friendlyName, factor.type],
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

/**
 * A challenge of the factor from this address (a WebAuthn factor's with what its answer is
 * checked against): the factor is stamped as challenged now.
 */
export async function createChallenge(
  q: Queryable,
  factorId: string,
  ip: string,
  webauthn: WebAuthnSession | null = null,
): Promise<ChallengeRow> {
  const [row] = await q.query<ChallengeRow>(
    `WITH c AS (
       INSERT INTO auth.mfa_challenges (factor_id, ip_address, web_authn_session_data)
       VALUES ($1, $2, $3) RETURNING *
     ), f AS (UPDATE auth.mfa_factors SET last_challenged_at = now() WHERE id = $1)
     SELECT * FROM c`,
    [factorId, ip, webauthn && JSON.stringify(webauthn)],
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
  ["webauthn", "mfa/webauthn"],
]);
export const amrMethodOf = (factor: FactorRow) => AMR_METHODS.get(factor.factor_type)!;

/** What a WebAuthn answer leaves on its factor: its new credential, or its counter moved on. */
export type WebAuthnUse = { credential: NewCredential } | { counter: number; backedUp: boolean };

/**
 * A code of `step` (or a WebAuthn answer) answered the challenge: the challenge is used, the
 * factor verified (its step recorded, or its credential stored or its counter moved on; its wrong
 * answers in a row forgotten), and the user's other unverified factors of the same type go. The
 * session it was answered in is raised by sessions.ts raiseToAal2.
 */
export async function completeChallenge(
  q: Queryable,
  /** `step`: the TOTP step the code was of (none for a phone code or a WebAuthn answer). */
  opts: { challenge: ChallengeRow; factor: FactorRow; step: number | null; webauthn?: WebAuthnUse },
): Promise<void> {
  const { challenge, factor, step, webauthn } = opts;
  await q.query("UPDATE auth.mfa_challenges SET verified_at = now() WHERE id = $1", [challenge.id]);
  await q.query(
    `UPDATE auth.mfa_factors SET status = 'verified', last_used_step = coalesce($2, last_used_step),
       web_authn_credential = coalesce($3, web_authn_credential),
       web_authn_aaguid = coalesce($4, web_authn_aaguid),
       failed_attempts = 0, locked_until = NULL, updated_at = now()
     WHERE id = $1`,
    [factor.id, step, ...webAuthnColumns(factor, webauthn)],
  );
  // The user's other unverified factors of this type go (GoTrue's DeleteUnverifiedFactors).
  await q.query(
    "DELETE FROM auth.mfa_factors WHERE user_id = $1 AND factor_type = $2 AND status = 'unverified'",
    [factor.user_id, factor.factor_type],
  );
}

/** The credential and AAGUID columns a WebAuthn answer writes (nulls keep what is there). */
function webAuthnColumns(
  factor: FactorRow,
  use: WebAuthnUse | undefined,
): [string | null, string | null] {
  if (!use) return [null, null];
  if ("credential" in use) {
    const c = use.credential;
    const stored: StoredWebAuthnCredential = {
      id: c.id,
      publicKey: Buffer.from(c.publicKey).toString("base64url"),
      counter: c.counter,
      transports: c.transports,
      backupEligible: c.backupEligible,
      backedUp: c.backedUp,
    };
    return [JSON.stringify(stored), c.aaguid];
  }
  const moved = { ...factor.web_authn_credential!, counter: use.counter, backedUp: use.backedUp };
  return [JSON.stringify(moved), null];
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

/** What GoTrue's Factor JSON shows of a factor. */
type ListedFactor = Pick<
  FactorRow,
  | "id"
  | "friendly_name"
  | "factor_type"
  | "status"
  | "phone"
  | "web_authn_aaguid"
  | "created_at"
  | "updated_at"
  | "last_challenged_at"
>;

/** GoTrue's Factor JSON (never the secret). */
export function serializeFactor(factor: ListedFactor) {
  return {
    id: factor.id,
    friendly_name: factor.friendly_name,
    factor_type: factor.factor_type,
    status: factor.status,
    ...(factor.phone ? { phone: factor.phone } : {}),
    ...(factor.web_authn_aaguid ? { web_authn_aaguid: factor.web_authn_aaguid } : {}),
    created_at: iso(factor.created_at),
    updated_at: iso(factor.updated_at),
    ...(factor.last_challenged_at ? { last_challenged_at: iso(factor.last_challenged_at) } : {}),
  };
}

/**
 * What the Factor JSON shows of a factor whose row was read as JSON (`json_agg`, which writes
 * timestamps as ISO 8601 text): the same fields, its times as Dates, as the driver reads columns.
 */
export function listedFactorOfJson(json: Record<string, unknown>): ListedFactor {
  const time = (value: unknown) => (typeof value === "string" ? new Date(value) : null);
  return {
    id: json.id as string,
    friendly_name: json.friendly_name as string,
    factor_type: json.factor_type as FactorRow["factor_type"],
    status: json.status as FactorRow["status"],
    phone: (json.phone as string | null) ?? null,
    web_authn_aaguid: (json.web_authn_aaguid as string | null) ?? null,
    created_at: time(json.created_at)!,
    updated_at: time(json.updated_at)!,
    last_challenged_at: time(json.last_challenged_at),
  };
}

/** The user's factors as the User JSON lists them. */
export async function factorsJson(q: Queryable, userId: string) {
  return (await listFactors(q, userId)).map(serializeFactor);
}
