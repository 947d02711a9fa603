// A client's registration and update, checked as GoTrue checks them (oauthserver/service.go and
// client_auth.go): redirect URIs (absolute, no fragment, no dangerous scheme, plain http to
// loopback only; 1 to 10), grant types, names and URIs within their lengths, and a client type
// consistent with its token endpoint authentication method. Each refusal is 400
// validation_failed with GoTrue's message.
import { AuthError, ErrorCode } from "../errors.ts";
import type {
  ClientChanges,
  ClientFields,
  ClientType,
  TokenEndpointAuthMethod,
} from "../models/oauth-clients.ts";

const invalid = (message: string) => new AuthError(400, ErrorCode.validation_failed, message);

const AUTH_METHODS: TokenEndpointAuthMethod[] = [
  "none",
  "client_secret_basic",
  "client_secret_post",
];
const GRANT_TYPES = ["authorization_code", "refresh_token"];
const DANGEROUS_SCHEMES = new Set([
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "about:",
  "blob:",
]);
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The client type an authentication method implies (none: public; a secret: confidential). */
const typeOf = (method: TokenEndpointAuthMethod): ClientType =>
  method === "none" ? "public" : "confidential";

function redirectUriProblem(uri: string): string | undefined {
  if (uri === "") return "redirect URI cannot be empty";
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "invalid URL format";
  }
  if (DANGEROUS_SCHEMES.has(url.protocol.toLowerCase()))
    return `scheme '${url.protocol.slice(0, -1)}' is not allowed for security reasons`;
  if (!url.host) return "must have scheme and host";
  if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname))
    return "HTTP scheme only allowed for localhost";
  if (uri.includes("#")) return "fragment not allowed in redirect URI";
  return undefined;
}

function readRedirectUris(value: unknown): string[] {
  if (value === undefined) throw invalid("redirect_uris is required");
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string"))
    throw invalid("redirect_uris must be a list of URIs");
  if (value.length === 0) throw invalid("redirect_uris cannot be empty");
  if (value.length > 10) throw invalid("redirect_uris cannot exceed 10 items");
  for (const uri of value) {
    const problem = redirectUriProblem(uri);
    if (problem) throw invalid(`invalid redirect_uri '${uri}': ${problem}`);
  }
  return value;
}

function readGrantTypes(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid("grant_types cannot be empty");
  if (!value.every((v) => GRANT_TYPES.includes(v)))
    throw invalid("grant_types must only contain 'authorization_code' and/or 'refresh_token'");
  return [...new Set(value as string[])];
}

function readText(value: unknown, name: string, max: number, isUri: boolean): string | null {
  if (value === undefined || value === "") return null;
  if (typeof value !== "string") throw invalid(`${name} must be a string`);
  if (value.length > max) throw invalid(`${name} cannot exceed ${max} characters`);
  if (isUri && !URL.canParse(value)) throw invalid(`${name} must be a valid URL`);
  return value;
}

function readAuthMethod(value: unknown): TokenEndpointAuthMethod | undefined {
  if (value === undefined || value === "") return undefined;
  if (!AUTH_METHODS.includes(value as TokenEndpointAuthMethod))
    throw invalid(`token_endpoint_auth_method must be one of: [${AUTH_METHODS.join(" ")}]`);
  return value as TokenEndpointAuthMethod;
}

/** A registration's fields (the admin API's `manual`, or dynamic registration's `dynamic`). */
export function readRegistration(
  body: Record<string, unknown>,
  registrationType: "dynamic" | "manual",
): ClientFields {
  const redirectUris = readRedirectUris(body.redirect_uris);
  const grantTypes =
    body.grant_types === undefined ? GRANT_TYPES : readGrantTypes(body.grant_types);
  const clientName = readText(body.client_name, "client_name", 1024, false);
  const clientUri = readText(body.client_uri, "client_uri", 2048, true);
  const logoUri = readText(body.logo_uri, "logo_uri", 2048, true);
  const explicitType =
    body.client_type === undefined || body.client_type === "" ? undefined : body.client_type;
  if (explicitType !== undefined && explicitType !== "public" && explicitType !== "confidential")
    throw invalid("client_type must be 'public' or 'confidential'");
  const method = readAuthMethod(body.token_endpoint_auth_method);
  if (explicitType && method && typeOf(method) !== explicitType)
    throw invalid(
      `client_type '${explicitType}' is inconsistent with token_endpoint_auth_method '${method}' (expected client_type '${typeOf(method)}')`,
    );
  // GoTrue's order: an explicit type, else the method's, else confidential; a method left out is
  // none for a public client and client_secret_basic (RFC 7591's default) for a confidential one.
  const clientType: ClientType =
    (explicitType as ClientType | undefined) ?? (method ? typeOf(method) : "confidential");
  return {
    registration_type: registrationType,
    client_type: clientType,
    token_endpoint_auth_method:
      method ?? (clientType === "public" ? "none" : "client_secret_basic"),
    redirect_uris: redirectUris,
    grant_types: grantTypes,
    client_name: clientName,
    client_uri: clientUri,
    logo_uri: logoUri,
  };
}

/** An update's fields: only those given change; at least one must be. */
export function readUpdate(body: Record<string, unknown>, clientType: ClientType): ClientChanges {
  const changes: ClientChanges = {};
  if (body.redirect_uris !== undefined)
    changes.redirect_uris = readRedirectUris(body.redirect_uris);
  if (body.grant_types !== undefined) changes.grant_types = readGrantTypes(body.grant_types);
  if (body.client_name !== undefined)
    changes.client_name = readText(body.client_name, "client_name", 1024, false);
  if (body.client_uri !== undefined)
    changes.client_uri = readText(body.client_uri, "client_uri", 2048, true);
  if (body.logo_uri !== undefined)
    changes.logo_uri = readText(body.logo_uri, "logo_uri", 2048, true);
  if (body.token_endpoint_auth_method !== undefined) {
    const method = readAuthMethod(body.token_endpoint_auth_method);
    if (method === undefined || typeOf(method) !== clientType)
      throw invalid(
        `token_endpoint_auth_method '${String(body.token_endpoint_auth_method)}' is not valid for client_type '${clientType}'`,
      );
    changes.token_endpoint_auth_method = method;
  }
  if (Object.keys(changes).length === 0) throw invalid("No fields provided for update");
  return changes;
}
