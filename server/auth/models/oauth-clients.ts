// OAuth clients (GoTrue's models/oauth_client.go): the only writer of auth.oauth_clients. A
// confidential client's secret is shown once, when made or regenerated, and stored as its SHA-256
// only; a public client has none. Deleted clients stay as rows (deleted_at) and are never found.
import crypto from "node:crypto";
import type { Queryable } from "../../db/database.ts";
import { sameSecret } from "../../security/constant-time.ts";

export type ClientType = "public" | "confidential";
export type TokenEndpointAuthMethod = "none" | "client_secret_basic" | "client_secret_post";

/** What a client is made of (registration's fields, checked by oauth-server/registration.ts). */
export type ClientFields = {
  registration_type: "dynamic" | "manual";
  client_type: ClientType;
  token_endpoint_auth_method: TokenEndpointAuthMethod;
  redirect_uris: string[];
  grant_types: string[];
  client_name: string | null;
  client_uri: string | null;
  logo_uri: string | null;
};

export type OAuthClientRow = ClientFields & {
  id: string;
  client_secret_hash: string | null;
  created_at: Date;
  updated_at: Date;
};

/** The fields an update may change. */
export type ClientChanges = Partial<
  Pick<
    ClientFields,
    | "redirect_uris"
    | "grant_types"
    | "client_name"
    | "client_uri"
    | "logo_uri"
    | "token_endpoint_auth_method"
  >
>;

const secretHash = (secret: string) =>
  crypto.createHash("sha256").update(secret).digest("base64url");

/** A new secret: 32 random bytes, base64url (GoTrue's generateClientSecret). */
function newSecret(): { secret: string; hash: string } {
  const secret = crypto.randomBytes(32).toString("base64url");
  return { secret, hash: secretHash(secret) };
}

/** Whether `given` is the client's secret (compared as hashes, in constant time). */
export function secretMatches(client: OAuthClientRow, given: string): boolean {
  return (
    client.client_secret_hash !== null && sameSecret(client.client_secret_hash, secretHash(given))
  );
}

/** Stores a new client; a confidential one's secret is returned here and never again. */
export async function createClient(
  q: Queryable,
  fields: ClientFields,
): Promise<{ client: OAuthClientRow; secret: string | undefined }> {
  const made = fields.client_type === "confidential" ? newSecret() : undefined;
  const [client] = await q.query<OAuthClientRow>(
    `INSERT INTO auth.oauth_clients (client_secret_hash, registration_type, client_type,
       token_endpoint_auth_method, redirect_uris, grant_types, client_name, client_uri, logo_uri)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
    [
      made?.hash ?? null,
      fields.registration_type,
      fields.client_type,
      fields.token_endpoint_auth_method,
      fields.redirect_uris,
      fields.grant_types,
      fields.client_name,
      fields.client_uri,
      fields.logo_uri,
    ],
  );
  return { client: client!, secret: made?.secret };
}

/** The client of this id, unless deleted. */
export async function findClient(q: Queryable, id: string): Promise<OAuthClientRow | undefined> {
  const [client] = await q.query<OAuthClientRow>(
    "SELECT * FROM auth.oauth_clients WHERE id = $1 AND deleted_at IS NULL",
    [id],
  );
  return client;
}

/** Every client not deleted, newest first (GoTrue lists them unpaginated). */
export function listClients(q: Queryable): Promise<OAuthClientRow[]> {
  return q.query<OAuthClientRow>(
    "SELECT * FROM auth.oauth_clients /* whole table: the service role's list of clients */ WHERE deleted_at IS NULL ORDER BY created_at DESC",
  );
}

/** Writes the given fields (the others stay). */
export async function updateClient(
  q: Queryable,
  id: string,
  changes: ClientChanges,
): Promise<OAuthClientRow> {
  const names = Object.keys(changes) as (keyof ClientChanges)[];
  const sets = names.map((name, i) => `${name} = $${i + 2}`);
  const [client] = await q.query<OAuthClientRow>(
    `UPDATE auth.oauth_clients SET ${[...sets, "updated_at = now()"].join(", ")}
     WHERE id = $1 AND deleted_at IS NULL RETURNING *`,
    [id, ...names.map((name) => changes[name])],
  );
  return client!;
}

/** A confidential client's new secret (the old one stops working); returned once. */
export async function regenerateSecret(
  q: Queryable,
  id: string,
): Promise<{ client: OAuthClientRow; secret: string }> {
  const { secret, hash } = newSecret();
  const [client] = await q.query<OAuthClientRow>(
    `UPDATE auth.oauth_clients SET client_secret_hash = $2, updated_at = now()
     WHERE id = $1 AND deleted_at IS NULL RETURNING *`,
    [id, hash],
  );
  return { client: client!, secret };
}

/**
 * Deletes a client softly, as GoTrue does, and ends what it held: its sessions (their refresh
 * tokens go with them), its pending or unexchanged authorizations.
 */
export async function deleteClient(q: Queryable, id: string): Promise<void> {
  await q.query("UPDATE auth.oauth_clients SET deleted_at = now() WHERE id = $1", [id]);
  await q.query("DELETE FROM auth.sessions WHERE oauth_client_id = $1", [id]);
  await q.query("DELETE FROM auth.oauth_authorizations WHERE client_id = $1", [id]);
}
