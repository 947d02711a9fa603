// GET /verify (the link in an email: a browser navigation, answered with a 303 redirect) and
// POST /verify (a code or a token hash, answered with a session). Using a link or code confirms
// the address, opens a recovery session, or counts towards an email change.
import type { FastifyInstance, FastifyReply } from "fastify";
import { isUniqueViolation, type Queryable } from "../../db/database.ts";
import { LIMITS } from "../../platform/rate-limit.ts";
import type { AuthContext } from "../context.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { issueAuthCode } from "../models/flow-states.ts";
import {
  consumeCode,
  consumeTokenHash,
  deleteTokens,
  PKCE_PREFIX,
  type OneTimeToken,
  type TokenType,
} from "../models/one-time-tokens.ts";
import { signIn } from "../models/sessions.ts";
import { confirmEmailChange, isBanned, markEmailConfirmed, type UserRow } from "../models/users.ts";
import { safeRedirect, withParams } from "../redirects.ts";
import { queryParam, readBody } from "../request.ts";

/** The verification types of the protocol and the tokens each may use. */
const VERIFY_TYPES = new Map<string, TokenType[]>([
  ["signup", ["confirmation"]],
  ["invite", ["confirmation"]],
  ["recovery", ["recovery"]],
  ["email_change", ["email_change_new", "email_change_current"]],
  ["email", ["confirmation", "recovery"]],
  ["magiclink", []],
]);

/** The token types a verification type may use; 400 validation_failed for any other type. */
function tokenTypesFor(type: string): TokenType[] {
  const types = VERIFY_TYPES.get(type);
  if (!types)
    throw new AuthError(400, ErrorCode.validation_failed, "Unsupported verification type");
  return types;
}

const OTHER_LINK_MESSAGE =
  "Confirmation link accepted. Please proceed to confirm link sent to the other email";

type Verified =
  | { kind: "signed_in"; user: UserRow; method: string }
  | { kind: "needs_other_link" }
  | { kind: "invalid" };

/** What using a token does to its user. */
async function applyVerification(q: Queryable, token: OneTimeToken): Promise<Verified> {
  switch (token.token_type) {
    case "confirmation":
      return { kind: "signed_in", user: await markEmailConfirmed(q, token.user_id), method: "otp" };
    case "recovery":
      await deleteTokens(q, token.user_id, ["recovery"]);
      return {
        kind: "signed_in",
        user: await markEmailConfirmed(q, token.user_id),
        method: "recovery",
      };
    case "email_change_new":
    case "email_change_current": {
      const step = await confirmEmailChange(q, token);
      return step.kind === "changed"
        ? { kind: "signed_in", user: step.user, method: "email_change" }
        : step;
    }
  }
}

const expiredLink = () =>
  new AuthError(403, ErrorCode.otp_expired, "Email link is invalid or has expired");
const expiredCode = () =>
  new AuthError(403, ErrorCode.otp_expired, "Token has expired or is invalid");

export default async function verify(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config } = app;

  app.get("/verify", { config: { rateLimit: LIMITS.authVerify } }, async (request, reply) => {
    const token = queryParam(request, "token");
    const type = queryParam(request, "type");
    if (!token || !type)
      throw new AuthError(400, ErrorCode.validation_failed, "Verify requires a token and a type");
    const types = tokenTypesFor(type);
    const redirectTo = safeRedirect(queryParam(request, "redirect_to"), config.siteUrl);
    const pkce = token.startsWith(PKCE_PREFIX);

    const outcome = await db
      .transaction(async (tx) => {
        const used = await consumeTokenHash(tx, token, types);
        if (!used) return { kind: "error" as const };
        const verified = await applyVerification(tx, used);
        if (verified.kind === "invalid") return { kind: "error" as const };
        if (verified.kind === "needs_other_link") return { kind: "message" as const };
        if (isBanned(verified.user)) return { kind: "error" as const };
        if (used.flow_state_id) {
          const code = await issueAuthCode(tx, used.flow_state_id);
          return code ? { kind: "code" as const, code } : { kind: "error" as const };
        }
        return {
          kind: "session" as const,
          session: await signIn(tx, ctx, verified.user, verified.method, request),
        };
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) return { kind: "error" as const }; // address taken meanwhile
        throw err;
      });

    switch (outcome.kind) {
      case "error": {
        const params = {
          error: "access_denied",
          error_code: "otp_expired",
          error_description: "Email link is invalid or has expired",
          sb: "",
        };
        const url = withParams(redirectTo, params, "hash");
        return see(reply, pkce ? withParams(url, params, "query") : url);
      }
      case "message":
        return see(reply, withParams(redirectTo, { message: OTHER_LINK_MESSAGE, sb: "" }, "hash"));
      case "code":
        return see(reply, withParams(redirectTo, { code: outcome.code }, "query"));
      case "session": {
        const s = outcome.session;
        return see(
          reply,
          withParams(
            redirectTo,
            {
              access_token: s.access_token,
              expires_at: String(s.expires_at),
              expires_in: String(s.expires_in),
              refresh_token: s.refresh_token,
              sb: "",
              token_type: "bearer",
              type,
            },
            "hash",
          ),
        );
      }
    }
  });

  app.post("/verify", { config: { rateLimit: LIMITS.authVerify } }, async (request) => {
    const body = readBody(request);
    const type = typeof body.type === "string" ? body.type : undefined;
    if (!type)
      throw new AuthError(400, ErrorCode.validation_failed, "Verify requires a verification type");
    const types = tokenTypesFor(type);
    const hasToken = typeof body.token === "string" && body.token !== "";
    const hasHash = typeof body.token_hash === "string" && body.token_hash !== "";
    if (hasToken === hasHash)
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Verify requires either a token or a token hash",
      );
    if (hasHash && (body.email !== undefined || body.phone !== undefined)) {
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Only the token_hash and type should be provided",
      );
    }
    let email = "";
    if (hasToken) {
      email = typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
      if (!/^[^@\s]+@[^@\s]+$/.test(email))
        throw new AuthError(422, ErrorCode.validation_failed, "Invalid email format");
    }

    const invalid = () => (hasHash ? expiredLink() : expiredCode());
    return db
      .transaction(async (tx) => {
        const used = hasHash
          ? await consumeTokenHash(tx, body.token_hash as string, types)
          : await consumeCode(tx, email, body.token as string, types);
        if (!used) throw invalid();
        const verified = await applyVerification(tx, used);
        if (verified.kind === "invalid") throw invalid();
        if (verified.kind === "needs_other_link") return { msg: OTHER_LINK_MESSAGE, code: "200" };
        if (isBanned(verified.user))
          throw new AuthError(403, ErrorCode.user_banned, "User is banned");
        return signIn(tx, ctx, verified.user, verified.method, request);
      })
      .catch((err: unknown) => {
        throw isUniqueViolation(err) ? invalid() : err; // address taken meanwhile
      });
  });
}

function see(reply: FastifyReply, location: string) {
  return reply.code(303).header("location", location).header("cache-control", "no-store").send();
}
