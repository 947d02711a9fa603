// PKCE (RFC 7636) for email links and external providers: the request that sends the email (or
// the browser to the provider) stores the code challenge; the link (or the provider's callback)
// yields a one-time auth code; the client exchanges code + verifier for a session. A sign-in at
// an external provider keeps its flow state from GET /authorize to /callback in either flow: its
// id is the `state` the provider hands back, claimed once.
import crypto from "node:crypto";
import type { Queryable } from "../../db/database.ts";
import { deleteBatchBefore } from "../../platform/retention.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { presentString } from "../request.ts";
import { sameSecret } from "../../security/constant-time.ts";

/** GoTrue's FLOW_STATE_EXPIRY_DURATION: the code must be exchanged within 5 minutes. */
const AUTH_CODE_TTL_SECONDS = 300;

export type Pkce = { challenge: string; method: "s256" | "plain" };

/**
 * Reads code_challenge / code_challenge_method from a request body (both or neither; "" is
 * absent, another type than text unreadable).
 */
export function parsePkce(body: {
  code_challenge?: unknown;
  code_challenge_method?: unknown;
}): Pkce | undefined {
  const challenge = presentString(body.code_challenge);
  const method = presentString(body.code_challenge_method);
  if (challenge === undefined && method === undefined) return undefined;
  if (challenge === undefined || method === undefined) {
    throw new AuthError(
      400,
      ErrorCode.validation_failed,
      "PKCE flow requires code_challenge_method and code_challenge",
    );
  }
  // GoTrue's checks of the challenge (pkce.go), before the method is read: its length in bytes,
  // then its characters (RFC 7636's unreserved ones), each with its own message.
  const bytes = Buffer.byteLength(challenge, "utf8");
  if (bytes < 43 || bytes > 128)
    throw new AuthError(
      400,
      ErrorCode.validation_failed,
      "code challenge has to be between 43 and 128 characters",
    );
  if (!/^[A-Za-z0-9._~-]+$/.test(challenge))
    throw new AuthError(
      400,
      ErrorCode.validation_failed,
      "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes",
    );
  const normalized = method.toLowerCase();
  if (normalized !== "s256" && normalized !== "plain") {
    throw new AuthError(400, ErrorCode.validation_failed, "code challenge method not supported");
  }
  return { challenge, method: normalized };
}

export async function createFlowState(
  q: Queryable,
  userId: string,
  pkce: Pkce,
  authenticationMethod: string,
): Promise<string> {
  const [row] = await q.query<{ id: string }>(
    "INSERT INTO auth.flow_states (user_id, code_challenge, code_challenge_method, authentication_method) VALUES ($1, $2, $3, $4) RETURNING id",
    [userId, pkce.challenge, pkce.method, authenticationMethod],
  );
  return row!.id;
}

export async function issueAuthCode(
  q: Queryable,
  flowStateId: string,
): Promise<string | undefined> {
  const [row] = await q.query<{ auth_code: string }>(
    "UPDATE auth.flow_states SET auth_code = gen_random_uuid(), auth_code_issued_at = now() WHERE id = $1 RETURNING auth_code",
    [flowStateId],
  );
  return row?.auth_code;
}

/** GoTrue's FlowStateExpiryDuration: the provider's callback must come within 5 minutes. */
const EXTERNAL_STATE_TTL_SECONDS = 300;

export type ExternalFlowState = {
  id: string;
  provider_type: string;
  code_challenge: string | null;
  provider_code_verifier: string;
  provider_nonce: string;
  referrer: string;
  linking_target_id: string | null;
};

/**
 * The flow state of a sign-in at an external provider; its id is the `state` sent to the provider:
 * a random (version 4) UUID, which nobody can guess or derive from the time, unlike the table's
 * time-ordered ids.
 */
export async function createExternalFlowState(
  q: Queryable,
  state: {
    provider: string;
    pkce: Pkce | undefined;
    codeVerifier: string;
    nonce: string;
    referrer: string;
    linkingTargetId?: string;
  },
): Promise<string> {
  const [row] = await q.query<{ id: string }>(
    `INSERT INTO auth.flow_states (id, code_challenge, code_challenge_method, authentication_method,
       provider_type, provider_code_verifier, provider_nonce, referrer, linking_target_id)
     VALUES (gen_random_uuid(), $1, $2, 'oauth', $3, $4, $5, $6, $7) RETURNING id`,
    [
      state.pkce?.challenge ?? null,
      state.pkce?.method ?? null,
      state.provider,
      state.codeVerifier,
      state.nonce,
      state.referrer,
      state.linkingTargetId ?? null,
    ],
  );
  return row!.id;
}

const badState = (message: string) => new AuthError(400, ErrorCode.bad_oauth_state, message);

/**
 * Claims the flow state a provider's callback names, once: GoTrue's loadExternalState. A state
 * that is not a UUID, unknown, older than 5 minutes or already claimed is refused, in GoTrue's
 * words (a PKCE flow's second claim is "already used"; an implicit one's state is gone by then).
 */
export async function claimExternalFlowState(
  q: Queryable,
  state: string,
): Promise<ExternalFlowState> {
  if (!UUID.test(state)) throw badState("OAuth state parameter is invalid");
  const row = await claimFlowState<ExternalFlowState>(
    q,
    state,
    "provider_type IS NOT NULL AND sso_provider_id IS NULL",
    EXTERNAL_STATE_TTL_SECONDS,
  );
  if (!row || (row.was_claimed && row.code_challenge === null))
    throw badState("OAuth state not found or expired");
  if (row.expired) throw badState("OAuth state has expired");
  if (row.was_claimed)
    throw new AuthError(400, ErrorCode.flow_state_already_used, "State has already been used");
  return row;
}

/**
 * Marks a flow state claimed in one atomic statement, whoever else tries at the same moment: the
 * row as it was (`was_claimed`) and whether it outlived `ttlSeconds`, or undefined when unknown.
 */
async function claimFlowState<T>(
  q: Queryable,
  id: string,
  kind: string,
  ttlSeconds: number,
): Promise<(T & { was_claimed: boolean; expired: boolean }) | undefined> {
  const [row] = await q.query<T & { was_claimed: boolean; expired: boolean }>(
    `WITH before AS (
       SELECT id, claimed_at IS NOT NULL AS was_claimed FROM auth.flow_states
       WHERE id = $1 AND ${kind} FOR UPDATE
     )
     UPDATE auth.flow_states f SET claimed_at = coalesce(f.claimed_at, now()) FROM before
     WHERE f.id = before.id
     RETURNING f.id, f.provider_type, f.code_challenge, f.provider_code_verifier, f.provider_nonce,
       f.referrer, f.linking_target_id, f.sso_provider_id, f.saml_request_id, before.was_claimed,
       f.created_at < now() - make_interval(secs => $2) AS expired`,
    [id, ttlSeconds],
  );
  return row;
}

export type SsoFlowState = {
  id: string;
  code_challenge: string | null;
  referrer: string;
  sso_provider_id: string;
  saml_request_id: string;
};

/**
 * The flow state of a single sign-on: which provider was sent which request, where the browser
 * goes after. Its id (a random version 4 UUID, as an external provider's state) is the RelayState.
 */
export async function createSsoFlowState(
  q: Queryable,
  state: {
    id: string;
    ssoProviderId: string;
    requestId: string;
    pkce: Pkce | undefined;
    referrer: string;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO auth.flow_states (id, code_challenge, code_challenge_method, authentication_method,
       provider_type, referrer, sso_provider_id, saml_request_id)
     VALUES ($1, $2, $3, 'sso/saml', 'sso/saml', $4, $5, $6)`,
    [
      state.id,
      state.pkce?.challenge ?? null,
      state.pkce?.method ?? null,
      state.referrer,
      state.ssoProviderId,
      state.requestId,
    ],
  );
}

/**
 * Claims the flow state a SAML response's RelayState names, once, as GoTrue's SamlAcs spends its
 * relay state: unknown or already spent is `saml_relay_state_not_found`, older than the validity
 * period (GOTRUE_SAML_RELAY_STATE_VALIDITY_PERIOD) `saml_relay_state_expired`.
 */
export async function claimSsoFlowState(
  q: Queryable,
  relayState: string,
  ttlSeconds: number,
): Promise<SsoFlowState> {
  const row = UUID.test(relayState)
    ? await claimFlowState<SsoFlowState>(q, relayState, "sso_provider_id IS NOT NULL", ttlSeconds)
    : undefined;
  if (!row || row.was_claimed)
    throw new AuthError(
      404,
      ErrorCode.saml_relay_state_not_found,
      "SAML RelayState does not exist, try logging in again?",
    );
  if (row.expired)
    throw new AuthError(
      422,
      ErrorCode.saml_relay_state_expired,
      "SAML RelayState has expired. Try logging in again?",
    );
  return row;
}

/** The implicit flow's state is spent once its session is issued. */
export async function deleteFlowState(q: Queryable, id: string): Promise<void> {
  await q.query("DELETE FROM auth.flow_states WHERE id = $1", [id]);
}

/**
 * The PKCE flow's callback succeeded: the flow state now names its user and yields a one-time
 * auth code, with the provider's tokens (sealed) for the exchange's answer.
 */
export async function issueExternalAuthCode(
  q: Queryable,
  id: string,
  userId: string,
  providerTokens: { accessToken: string | null; refreshToken: string | null },
): Promise<string> {
  const [row] = await q.query<{ auth_code: string }>(
    `UPDATE auth.flow_states SET user_id = $2, auth_code = gen_random_uuid(), auth_code_issued_at = now(),
       provider_access_token = $3, provider_refresh_token = $4
     WHERE id = $1 RETURNING auth_code`,
    [id, userId, providerTokens.accessToken, providerTokens.refreshToken],
  );
  return row!.auth_code;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Exchanges an auth code and its verifier; the flow state is deleted whatever the outcome. */
export async function exchangeAuthCode(
  q: Queryable,
  authCode: string,
  verifier: string,
): Promise<{
  userId: string;
  method: string;
  providerTokens: { access: string | null; refresh: string | null };
}> {
  if (!UUID.test(authCode))
    throw new AuthError(
      404,
      ErrorCode.flow_state_not_found,
      "invalid flow state, no valid flow state found",
    );
  const [flow] = await q.query<{
    user_id: string | null;
    code_challenge: string;
    code_challenge_method: "s256" | "plain";
    authentication_method: string;
    provider_access_token: string | null;
    provider_refresh_token: string | null;
    expired: boolean;
  }>(
    `DELETE FROM auth.flow_states WHERE auth_code = $1
     RETURNING user_id, code_challenge, code_challenge_method, authentication_method,
       provider_access_token, provider_refresh_token,
       auth_code_issued_at < now() - make_interval(secs => $2) AS expired`,
    [authCode, AUTH_CODE_TTL_SECONDS],
  );
  if (!flow?.user_id)
    throw new AuthError(
      404,
      ErrorCode.flow_state_not_found,
      "invalid flow state, no valid flow state found",
    );
  if (flow.expired)
    throw new AuthError(
      422,
      ErrorCode.flow_state_expired,
      "invalid flow state, flow state has expired",
    );
  const computed =
    flow.code_challenge_method === "s256"
      ? crypto.createHash("sha256").update(verifier).digest("base64url")
      : verifier;
  if (!sameSecret(flow.code_challenge, computed)) {
    throw new AuthError(
      400,
      ErrorCode.bad_code_verifier,
      "code challenge does not match previously saved code verifier",
    );
  }
  return {
    userId: flow.user_id,
    method: flow.authentication_method,
    providerTokens: { access: flow.provider_access_token, refresh: flow.provider_refresh_token },
  };
}

/** GoTrue's cleanup keeps a flow state a day (its code is exchanged within 5 minutes). */
const FLOW_STATE_KEEP_MS = 86_400_000;

/**
 * Deletes at most `limit` flow states made a day before `at` (never exchanged, or exchanged
 * long ago: nothing reads them any more); how many went. Any instance may run it at any time.
 */
export async function deleteStaleFlowStates(
  q: Queryable,
  limit: number,
  at = new Date(),
): Promise<number> {
  return deleteBatchBefore(
    q,
    "auth.flow_states",
    "created_at < $1::timestamptz",
    new Date(at.getTime() - FLOW_STATE_KEEP_MS),
    limit,
  );
}
