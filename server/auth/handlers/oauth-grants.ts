// The OAuth clients a person allowed, and taking that back (GoTrue's UserListOAuthGrants and
// UserRevokeOAuthGrant; auth-js's oauth.listGrants and revokeGrant): GET and DELETE
// /user/oauth/grants. Taking a grant back ends the client's sessions of theirs.
import type { FastifyInstance } from "fastify";
import { isUuid } from "../../platform/uuid.ts";
import { auditUser } from "../audit.ts";
import { authenticate } from "../authenticate.ts";
import type { AuthContext } from "../context.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { grantsOf, revokeConsent } from "../models/oauth-consents.ts";
import { requireOAuthServer } from "../oauth-server/enabled.ts";
import { queryParam } from "../request.ts";

export default async function oauthGrants(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db } = app;
  const enabled = requireOAuthServer(app);

  app.get("/user/oauth/grants", { onRequest: enabled }, async (request) => {
    const { user } = await authenticate(db, ctx.tokens, request);
    return grantsOf(db, user.id);
  });

  app.delete("/user/oauth/grants", { onRequest: enabled }, async (request, reply) => {
    const { user } = await authenticate(db, ctx.tokens, request);
    const clientId = queryParam(request, "client_id");
    if (!clientId)
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "client_id query parameter is required",
      );
    if (!isUuid(clientId))
      throw new AuthError(400, ErrorCode.validation_failed, "invalid client_id format");
    const revoked = await db.transaction(async (tx) => {
      if (!(await revokeConsent(tx, user.id, clientId))) return false;
      await auditUser(tx, request, user, "token_revoked", {
        oauth_client_id: clientId,
        action: "revoke_oauth_grant",
      });
      return true;
    });
    if (!revoked)
      throw new AuthError(
        404,
        ErrorCode.oauth_consent_not_found,
        "No active grant found for this client",
      );
    return reply.code(204).send();
  });
}
