// POST /logout?scope=global|local|others: ends sessions (their refresh tokens go with them, and
// their access tokens are refused from then on). supabase-js sends an empty JSON body.
import type { FastifyInstance } from "fastify";
import { queryParam, type AuthContext } from "./context.ts";
import { AuthError, ErrorCode } from "./errors.ts";
import { authenticate } from "./sessions.ts";

export default async function logout(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  app.post("/logout", async (request, reply) => {
    const scope = queryParam(request, "scope") || "global";
    if (!["global", "local", "others"].includes(scope))
      throw new AuthError(400, ErrorCode.validation_failed, `Unsupported logout scope "${scope}"`);
    const { user, session } = await authenticate(app.db, ctx.tokens, request);
    if (scope === "local")
      await app.db.query("DELETE FROM auth.sessions WHERE id = $1", [session.id]);
    else if (scope === "others")
      await app.db.query("DELETE FROM auth.sessions WHERE user_id = $1 AND id <> $2", [
        user.id,
        session.id,
      ]);
    else await app.db.query("DELETE FROM auth.sessions WHERE user_id = $1", [user.id]);
    return reply.code(204).send();
  });
}
