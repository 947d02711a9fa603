// Passkeys (GoTrue's webauthn_credentials): a user's credentials that sign them in, their
// counters and backup flags, and the challenges of their ceremonies. A challenge is stored in the
// database (any instance finishes what another began) and taken once: DELETE … RETURNING, so of
// two answers to one challenge only one finds it. A counter is moved forward only by a statement
// that checks it has not moved since (two sign-ins at once with one counter: one passes).
import { isUniqueViolation, type Queryable } from "../../db/database.ts";
import { deleteBatchBefore } from "../../platform/retention.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import type { NewCredential, StoredCredential } from "../webauthn.ts";

export type PasskeyRow = {
  id: string;
  user_id: string;
  credential_id: Uint8Array;
  public_key: Uint8Array;
  attestation_type: string;
  aaguid: string | null;
  sign_count: string | number;
  transports: string[];
  backup_eligible: boolean;
  backed_up: boolean;
  friendly_name: string;
  created_at: Date;
  updated_at: Date;
  last_used_at: Date | null;
};

export type ChallengeKind = "registration" | "authentication";

export type PasskeyChallengeRow = {
  id: string;
  user_id: string | null;
  challenge_type: ChallengeKind;
  session_data: { challenge: string };
  created_at: Date;
  expires_at: Date;
};

/** The credential as the ceremonies check it. */
export const storedCredential = (row: PasskeyRow): StoredCredential => ({
  id: Buffer.from(row.credential_id).toString("base64url"),
  publicKey: new Uint8Array(row.public_key) as Uint8Array<ArrayBuffer>,
  counter: Number(row.sign_count),
  transports: row.transports ?? [],
});

export function listPasskeys(q: Queryable, userId: string): Promise<PasskeyRow[]> {
  return q.query<PasskeyRow>(
    "SELECT * FROM auth.webauthn_credentials WHERE user_id = $1 ORDER BY created_at",
    [userId],
  );
}

export async function findPasskey(
  q: Queryable,
  userId: string,
  id: string,
): Promise<PasskeyRow | undefined> {
  const [row] = await q.query<PasskeyRow>(
    "SELECT * FROM auth.webauthn_credentials WHERE id = $1 AND user_id = $2",
    [id, userId],
  );
  return row;
}

/** The passkey of this credential id (base64url), whoever's it is. */
export async function findPasskeyByCredentialId(
  q: Queryable,
  credentialId: string,
): Promise<PasskeyRow | undefined> {
  const [row] = await q.query<PasskeyRow>(
    "SELECT * FROM auth.webauthn_credentials WHERE credential_id = $1",
    [Buffer.from(credentialId, "base64url")],
  );
  return row;
}

/**
 * Stores a verified credential as the user's passkey, unless they already have `max` (counted in
 * the same statement); a credential registered before (by anyone) is GoTrue's 422.
 */
export async function addPasskey(
  q: Queryable,
  userId: string,
  credential: NewCredential,
  opts: { friendlyName: string; max: number },
): Promise<PasskeyRow | undefined> {
  try {
    const [row] = await q.query<PasskeyRow>(
      `INSERT INTO auth.webauthn_credentials (user_id, credential_id, public_key, attestation_type,
         aaguid, sign_count, transports, backup_eligible, backed_up, friendly_name)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
       WHERE (SELECT count(*) FROM auth.webauthn_credentials WHERE user_id = $1) < $11
       RETURNING *`,
      [
        userId,
        Buffer.from(credential.id, "base64url"),
        Buffer.from(credential.publicKey),
        credential.attestationType,
        credential.aaguid,
        credential.counter,
        JSON.stringify(credential.transports),
        credential.backupEligible,
        credential.backedUp,
        opts.friendlyName,
        opts.max,
      ],
    );
    return row;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new AuthError(
      422,
      ErrorCode.webauthn_credential_exists,
      "This credential is already registered",
    );
  }
}

/**
 * A sign-in used the passkey: its counter moves to `counter` and it is stamped as used, only if
 * its counter is still the one the assertion was checked against. False when another sign-in
 * moved it first (the assertion is then refused).
 */
export async function recordPasskeyUse(
  q: Queryable,
  passkey: PasskeyRow,
  use: { counter: number; backedUp: boolean },
): Promise<boolean> {
  const rows = await q.query<{ id: string }>(
    `UPDATE auth.webauthn_credentials
     SET sign_count = $2, backed_up = $3, last_used_at = now(), updated_at = now()
     WHERE id = $1 AND sign_count = $4 RETURNING id`,
    [passkey.id, use.counter, use.backedUp, passkey.sign_count],
  );
  return rows.length > 0;
}

export async function renamePasskey(
  q: Queryable,
  passkey: PasskeyRow,
  friendlyName: string,
): Promise<PasskeyRow | undefined> {
  const [row] = await q.query<PasskeyRow>(
    `UPDATE auth.webauthn_credentials SET friendly_name = $2, updated_at = now()
     WHERE id = $1 RETURNING *`,
    [passkey.id, friendlyName],
  );
  return row;
}

/** Whether this call removed it (of two at the same moment, one does). */
export async function deletePasskey(q: Queryable, passkey: PasskeyRow): Promise<boolean> {
  const gone = await q.query("DELETE FROM auth.webauthn_credentials WHERE id = $1 RETURNING id", [
    passkey.id,
  ]);
  return gone.length > 0;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : undefined);

/** GoTrue's PasskeyListItem (friendly_name and last_used_at left out when empty). */
export function serializePasskey(row: PasskeyRow) {
  return {
    id: row.id,
    ...(row.friendly_name ? { friendly_name: row.friendly_name } : {}),
    created_at: iso(row.created_at),
    ...(row.last_used_at ? { last_used_at: iso(row.last_used_at) } : {}),
  };
}

/** A new challenge, alive for `seconds`. */
export async function createPasskeyChallenge(
  q: Queryable,
  opts: { userId: string | null; kind: ChallengeKind; challenge: string; seconds: number },
): Promise<PasskeyChallengeRow> {
  const [row] = await q.query<PasskeyChallengeRow>(
    `INSERT INTO auth.webauthn_challenges (user_id, challenge_type, session_data, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING *`,
    [opts.userId, opts.kind, JSON.stringify({ challenge: opts.challenge }), opts.seconds],
  );
  return row!;
}

/**
 * Takes the challenge (it is gone once taken): a registration's only by its user, a sign-in's
 * only when it belongs to nobody. Undefined when there is none such (never made, or used).
 */
export async function takePasskeyChallenge(
  q: Queryable,
  id: string,
  kind: ChallengeKind,
  userId: string | null,
): Promise<PasskeyChallengeRow | undefined> {
  const [row] = await q.query<PasskeyChallengeRow>(
    `DELETE FROM auth.webauthn_challenges
     WHERE id = $1 AND challenge_type = $2 AND user_id IS NOT DISTINCT FROM $3 RETURNING *`,
    [id, kind, userId],
  );
  return row;
}

/** Deletes up to `limit` challenges past their time (the hourly cleanup); how many went. */
export async function deleteExpiredPasskeyChallenges(
  q: Queryable,
  limit: number,
  at = new Date(),
): Promise<number> {
  return deleteBatchBefore(
    q,
    "auth.webauthn_challenges",
    "expires_at < $1::timestamptz",
    at,
    limit,
  );
}
