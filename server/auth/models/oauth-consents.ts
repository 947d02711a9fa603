// What a person allowed each OAuth client (GoTrue's models/oauth_consent.go), the only writer of
// auth.oauth_consents: one row per person and client, its scopes replaced by each approval,
// revoked when they take it back (which ends the client's sessions of theirs).
import type { Queryable } from "../../db/database.ts";

export type OAuthConsentRow = {
  id: string;
  user_id: string;
  client_id: string;
  scopes: string;
  granted_at: Date;
  revoked_at: Date | null;
};

/** The person's live consent for the client, if any. */
export async function activeConsent(
  q: Queryable,
  userId: string,
  clientId: string,
): Promise<OAuthConsentRow | undefined> {
  const [row] = await q.query<OAuthConsentRow>(
    `SELECT * FROM auth.oauth_consents
     WHERE user_id = $1 AND client_id = $2 AND revoked_at IS NULL`,
    [userId, clientId],
  );
  return row;
}

/** An approval: the consent (granted again if revoked) now holds these scopes, granted now. */
export async function grantConsent(
  q: Queryable,
  userId: string,
  clientId: string,
  scopes: string[],
): Promise<void> {
  await q.query(
    `INSERT INTO auth.oauth_consents (user_id, client_id, scopes) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, client_id)
     DO UPDATE SET scopes = EXCLUDED.scopes, granted_at = now(), revoked_at = NULL`,
    [userId, clientId, scopes.join(" ")],
  );
}

export type Grant = {
  client: { id: string; name: string; uri: string; logo_uri: string };
  scopes: string[];
  granted_at: Date;
};

/** The person's live consents with their clients (deleted clients left out), newest first. */
export async function grantsOf(q: Queryable, userId: string): Promise<Grant[]> {
  const rows = await q.query<
    OAuthConsentRow & { name: string | null; uri: string | null; logo: string | null }
  >(
    `SELECT c.*, k.client_name AS name, k.client_uri AS uri, k.logo_uri AS logo
     FROM auth.oauth_consents c JOIN auth.oauth_clients k ON k.id = c.client_id
     WHERE c.user_id = $1 AND c.revoked_at IS NULL AND k.deleted_at IS NULL
     ORDER BY c.granted_at DESC`,
    [userId],
  );
  return rows.map((row) => ({
    client: {
      id: row.client_id,
      name: row.name ?? "",
      uri: row.uri ?? "",
      logo_uri: row.logo ?? "",
    },
    scopes: row.scopes.split(" ").filter(Boolean),
    granted_at: row.granted_at,
  }));
}

/**
 * The person takes their consent back: false when they had none live for the client. The
 * client's sessions of theirs end with it (their refresh and access tokens stop working).
 */
export async function revokeConsent(
  q: Queryable,
  userId: string,
  clientId: string,
): Promise<boolean> {
  const revoked = await q.query<{ id: string }>(
    `UPDATE auth.oauth_consents SET revoked_at = now()
     WHERE user_id = $1 AND client_id = $2 AND revoked_at IS NULL RETURNING id`,
    [userId, clientId],
  );
  if (revoked.length === 0) return false;
  await q.query("DELETE FROM auth.sessions WHERE user_id = $1 AND oauth_client_id = $2", [
    userId,
    clientId,
  ]);
  return true;
}
