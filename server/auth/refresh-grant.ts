// A refresh token's grant, for the person's own client (POST /token) and an OAuth client's (POST
// /oauth/token) alike, in GoTrue's order: the token found, then its user judged (gone: the
// token's not found; banned: refused) before the session and before rotation or reuse detection,
// so a banned user's refresh changes nothing. An old token that comes back ends its session and
// answers refresh_token_already_used.
import type { FastifyRequest } from "fastify";
import type { Database } from "../db/database.ts";
import { auditUser } from "./audit.ts";
import type { AuthContext } from "./context.ts";
import { AuthError, ErrorCode } from "./errors.ts";
import { alreadyUsed, tokenNotFound } from "./models/refresh-tokens.ts";
import { findSession, type SessionRow } from "./models/sessions.ts";
import { findUserById, isBanned } from "./models/users.ts";

/**
 * The rotated session: its user, its row and the next refresh token. `clientId` is the OAuth
 * client refreshing, null for the person's own client (models/refresh-tokens.ts rotate).
 */
export async function refreshSession(
  db: Database,
  ctx: AuthContext,
  request: FastifyRequest,
  presented: string,
  clientId: string | null,
) {
  const found = await ctx.refreshTokens.find(db, presented);
  const user = await findUserById(db, found.userId);
  // Its tokens go with a user: one deleted meanwhile is GoTrue's token not found.
  if (!user) throw tokenNotFound();
  if (isBanned(user))
    throw new AuthError(400, ErrorCode.user_banned, "Invalid Refresh Token: User Banned");
  const result = await db.transaction(async (tx) => {
    const rotation = await ctx.refreshTokens.rotate<SessionRow>(tx, found, clientId);
    if (rotation.kind === "reused") {
      // An old token came back and ended its session: logged with the session it ended.
      await auditUser(tx, request, user, "token_revoked", {
        reason: "refresh_token_reused",
        session_id: found.sessionId,
      });
      return undefined;
    }
    const session = rotation.session ?? (await findSession(tx, rotation.sessionId))!;
    return { session, refreshToken: rotation.token };
  });
  if (!result) throw alreadyUsed();
  return { user, ...result };
}
