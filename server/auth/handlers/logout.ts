// POST /logout?scope=global|local|others: ends sessions (their refresh tokens go with them, and
// their access tokens are refused from then on). supabase-js sends an empty JSON body.
import type { FastifyInstance } from "fastify";
import { authenticate } from "../authenticate.ts";
import { auditUser } from "../audit.ts";
import type { AuthContext } from "../context.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { endSessions } from "../models/sessions.ts";
import { queryParam } from "../request.ts";

const SCOPES = ["global", "local", "others"] as const;

export default async function logout(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  app.post("/logout", async (request, reply) => {
    const { user, session } = await authenticate(app.db, ctx.tokens, request);
    const scope = queryParam(request, "scope") || "global";
    if (!SCOPES.includes(scope as (typeof SCOPES)[number]))
      throw new AuthError(400, ErrorCode.validation_failed, `Unsupported logout scope "${scope}"`);
    await app.db.transaction(async (tx) => {
      await endSessions(tx, session, scope as (typeof SCOPES)[number]);
      await auditUser(tx, request, user, "logout", { scope });
    });
    return reply.code(204).send();
  });
}
