// What every auth endpoint needs, built once for the /auth/v1 scope.
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { z } from "zod";
import { LIMITS } from "../platform/rate-limit.ts";
import { AuthError, ErrorCode } from "./errors.ts";
import { RefreshTokens } from "./refresh-tokens.ts";
import type { TokenSettings } from "./sessions.ts";

export type AuthContext = {
  app: FastifyInstance;
  tokens: TokenSettings;
  refreshTokens: RefreshTokens;
  /**
   * One per-IP bucket shared by every request that sends account email (sign-up, recovery,
   * resend, email change), as GoTrue's "Otp" bucket: an onRequest hook for those routes.
   */
  emailRequests: onRequestAsyncHookHandler;
};

export function authContext(app: FastifyInstance): AuthContext {
  return {
    app,
    tokens: {
      secret: app.keys.jwtSecret,
      issuer: `${app.config.siteUrl}/auth/v1`,
      expSeconds: app.config.jwtExpSeconds,
    },
    refreshTokens: new RefreshTokens(app.keys.derive("refresh-tokens")),
    emailRequests: app.rateLimit(LIMITS.authEmail),
  };
}

/** GoTrue reads bodies leniently: unknown fields are ignored and null means absent. */
export function readBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body ?? {};
  if (typeof body !== "object" || Array.isArray(body))
    throw new AuthError(400, ErrorCode.bad_json, "Could not parse request body as JSON");
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
}

const emailSchema = z.email();

/** Lower-cased and validated, or 400 validation_failed as GoTrue answers. */
export function readEmail(value: unknown): string {
  const email = typeof value === "string" ? value.trim().toLowerCase() : "";
  if (email.length > 254 || !emailSchema.safeParse(email).success) {
    throw new AuthError(
      400,
      ErrorCode.validation_failed,
      "Unable to validate email address: invalid format",
    );
  }
  return email;
}

/** User metadata: a JSON object that PostgreSQL's jsonb can store, at most 8 KiB of JSON. */
export function readMetadata(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new AuthError(400, ErrorCode.validation_failed, "data must be a JSON object");
  assertMetadataSize(value);
  if (!storableInJsonb(value))
    throw new AuthError(
      400,
      ErrorCode.validation_failed,
      "data must not contain NUL characters or unpaired surrogates",
    );
  return value as Record<string, unknown>;
}

export function assertMetadataSize(metadata: object) {
  if (JSON.stringify(metadata).length > 8192)
    throw new AuthError(400, ErrorCode.validation_failed, "data is too large");
}

// jsonb refuses U+0000 and UTF-16 surrogates that are not part of a pair.
// eslint-disable-next-line no-control-regex -- U+0000 is one of the characters looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function storableInJsonb(value: unknown): boolean {
  if (typeof value === "string") return !UNSTORABLE.test(value);
  if (typeof value !== "object" || value === null) return true;
  if (Array.isArray(value)) return value.every(storableInJsonb);
  return Object.entries(value).every(([k, v]) => storableInJsonb(k) && storableInJsonb(v));
}

export function queryParam(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}
