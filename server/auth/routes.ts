// The /auth/v1 scope: Supabase Auth (GoTrue) wire protocol.
import type { FastifyInstance } from "fastify";
import { authErrorHandler, authNotFound } from "./errors.ts";
import health from "./health.ts";

export default async function authRoutes(app: FastifyInstance) {
  app.setErrorHandler(authErrorHandler);
  app.setNotFoundHandler(authNotFound);
  app.all("/*", authNotFound);
  await app.register(health);
}
