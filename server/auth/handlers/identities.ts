// A signed-in user's identities: GET /user/identities/authorize (linking an external provider's
// identity: the provider's authorization URL, the sign-in there then joins the identity to this
// account) and DELETE /user/identities/{id} (unlinking one). Both need manual linking
// (GOTRUE_SECURITY_MANUAL_LINKING_ENABLED). Unlinking never removes the last identity.
import type { FastifyInstance } from "fastify";
import { isUuid } from "../../platform/uuid.ts";
import { authenticate, ofRequestAudience } from "../authenticate.ts";
import { auditUser } from "../audit.ts";
import type { AuthContext } from "../context.ts";
import { notifyOwner } from "../emails/security-notices.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { authorizationUrl } from "../external/sign-in.ts";
import { findUserById, identitiesOf, unlinkIdentity } from "../models/users.ts";
import { queryParam } from "../request.ts";

export default async function identities(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config, mailer } = app;

  const requireManualLinking = () => {
    if (!config.manualLinkingEnabled)
      throw new AuthError(404, ErrorCode.manual_linking_disabled, "Manual linking is disabled");
  };

  app.get("/user/identities/authorize", async (request, reply) => {
    const { user } = await authenticate(db, ctx.tokens, request);
    requireManualLinking();
    const url = await authorizationUrl(ctx, request, user);
    // auth-js asks for the URL as JSON and sends the browser there itself.
    if (queryParam(request, "skip_http_redirect") === "true") return { url };
    return reply.redirect(url, 302);
  });

  app.delete<{ Params: { id: string } }>("/user/identities/:id", async (request) => {
    const { user, claims } = await authenticate(db, ctx.tokens, request);
    requireManualLinking();
    if (!isUuid(request.params.id))
      throw new AuthError(404, ErrorCode.validation_failed, "identity_id must be an UUID");
    if (!ofRequestAudience(request, claims))
      throw new AuthError(
        403,
        ErrorCode.unexpected_audience,
        "Token audience doesn't match request audience",
      );
    await db.transaction(async (tx) => {
      // One unlink at a time per user: two at once could leave none.
      if (!(await findUserById(tx, user.id, true)))
        throw new AuthError(404, ErrorCode.user_not_found, "User not found");
      const list = await identitiesOf(tx, user.id);
      if (list.length <= 1)
        throw new AuthError(
          422,
          ErrorCode.single_identity_not_deletable,
          "User must have at least 1 identity after unlinking",
        );
      const identity = list.find((i) => i.id === request.params.id);
      if (!identity)
        throw new AuthError(422, ErrorCode.identity_not_found, "Identity doesn't exist");
      await unlinkIdentity(tx, identity);
      await auditUser(tx, request, user, "identity_unlinked", {
        identity_id: identity.id,
        provider: identity.provider,
      });
      // Told at the address the account had before (GoTrue's identity_unlinked notice).
      await notifyOwner(
        tx,
        mailer,
        user,
        { kind: "identity_unlinked", provider: identity.provider },
        config.siteUrl,
      );
    });
    mailer.flush();
    return {};
  });
}
