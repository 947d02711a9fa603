// GET /auth/v1/health: 200 when the database answers (GoTrue's shape), 503 when it does not.
import type { FastifyInstance } from "fastify";
import { AuthError, ErrorCode, sendAuthError } from "../errors.ts";

export default async function health(app: FastifyInstance) {
  app.get("/health", async (request, reply) => {
    try {
      await app.db.query("SELECT 1");
    } catch (err) {
      request.log.error({ err }, "health check: database did not answer");
      return sendAuthError(
        reply,
        new AuthError(503, ErrorCode.unexpected_failure, "Database unavailable"),
      );
    }
    return {
      version: "revwise",
      name: "GoTrue",
      description: "GoTrue is a user registration and authentication API",
    };
  });
}
