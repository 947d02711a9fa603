// The client behind a token or revocation request (GoTrue's requireOAuthClientAuth and
// ExtractClientCredentials): HTTP Basic (client_secret_basic), else client_id and client_secret
// in the body (client_secret_post), else client_id alone (none, a public client). The method
// used must be the one the client registered, and a confidential client's secret must match.
// Every refusal is GoTrue's 400 invalid_credentials; none says whether the client exists.
import type { FastifyRequest } from "fastify";
import type { Queryable } from "../../db/database.ts";
import { isUuid } from "../../platform/uuid.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import {
  findClient,
  secretMatches,
  type OAuthClientRow,
  type TokenEndpointAuthMethod,
} from "../models/oauth-clients.ts";

const refused = (message: string) => new AuthError(400, ErrorCode.invalid_credentials, message);

type Credentials = { clientId: string; secret: string; method: TokenEndpointAuthMethod };

function credentialsOf(request: FastifyRequest, body: Record<string, unknown>): Credentials {
  const header = request.headers.authorization ?? "";
  if (header.startsWith("Basic ")) {
    const decoded = Buffer.from(header.slice(6), "base64").toString();
    const colon = decoded.indexOf(":");
    if (colon < 0) throw refused("Invalid client credentials: invalid basic auth format");
    // RFC 6749 §2.3.1: both parts are form-encoded before they are joined.
    const part = (text: string) => {
      try {
        return decodeURIComponent(text.replaceAll("+", " "));
      } catch {
        throw refused("Invalid client credentials: invalid basic auth encoding");
      }
    };
    return {
      clientId: part(decoded.slice(0, colon)),
      secret: part(decoded.slice(colon + 1)),
      method: "client_secret_basic",
    };
  }
  const clientId = typeof body.client_id === "string" ? body.client_id : "";
  const secret = typeof body.client_secret === "string" ? body.client_secret : "";
  if (clientId === "") throw refused("Invalid client credentials: client_id is required");
  return { clientId, secret, method: secret ? "client_secret_post" : "none" };
}

/** The authenticated client of the request, or GoTrue's refusal. */
export async function authenticateClient(
  q: Queryable,
  request: FastifyRequest,
  body: Record<string, unknown>,
): Promise<OAuthClientRow> {
  const { clientId, secret, method } = credentialsOf(request, body);
  if (!isUuid(clientId)) throw refused("Invalid client_id format");
  const client = await findClient(q, clientId);
  if (!client) throw refused("Invalid client credentials");
  if (client.token_endpoint_auth_method !== method)
    throw refused(
      `invalid authentication method: client is registered for '${client.token_endpoint_auth_method}' but '${method}' was used`,
    );
  if (client.client_type === "confidential" && !secretMatches(client, secret))
    throw refused("invalid client credentials");
  return client;
}
