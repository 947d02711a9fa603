// What every auth endpoint needs, built once for the /auth/v1 scope.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { AuthError, ErrorCode } from "./errors.ts";
import { RefreshTokens } from "./refresh-tokens.ts";
import type { TokenSettings } from "./sessions.ts";

export type AuthContext = {
  app: FastifyInstance;
  tokens: TokenSettings;
  refreshTokens: RefreshTokens;
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

export function readMetadata(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw new AuthError(400, ErrorCode.validation_failed, "data must be a JSON object");
  if (JSON.stringify(value).length > 8192)
    throw new AuthError(400, ErrorCode.validation_failed, "data is too large");
  return value as Record<string, unknown>;
}

export function queryParam(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}
