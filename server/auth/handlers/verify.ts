// GET /verify (the link in an email: a browser navigation, answered with a 303 redirect) and
// POST /verify (a code with its email or phone, or a token hash; answered with a session). Using a
// link or code confirms the address or number, signs in (magic link, code), opens a recovery
// session, or counts towards an email or phone change. Checks come in GoTrue's order: the type,
// token or token hash, the email or phone (E.164) given with a code, then the token itself.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isUniqueViolation, type Queryable } from "../../db/database.ts";
import type { AuditAction } from "../../../common/audit.ts";
import { auditUser } from "../audit.ts";
import type { AuthContext } from "../context.ts";
import { notifyOwner, phoneNotice, type SecurityEvent } from "../emails/security-notices.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { issueAuthCode } from "../models/flow-states.ts";
import {
  consumeCode,
  consumeTokenHash,
  countWrongCode,
  deleteTokens,
  PKCE_PREFIX,
  type OneTimeToken,
  type TokenType,
} from "../models/one-time-tokens.ts";
import { addressUnproven, neverProven, voidWhatCameBeforeProof } from "../models/first-proof.ts";
import { signIn } from "../models/sessions.ts";
import { confirmPhoneChange, markPhoneConfirmed } from "../models/user-phones.ts";
import {
  confirmEmailChange,
  findUserById,
  isBanned,
  markEmailConfirmed,
  type UserRow,
} from "../models/users.ts";
import { redirectFor, redirectWith } from "../redirects.ts";
import { presentString, queryParam, readBody, readPhone } from "../request.ts";
import { countOutcome, verifications } from "../../metrics/metrics.ts";

/** The tokens each email verification type may use (a link, or a code with its email). */
const EMAIL_TYPES = new Map<string, TokenType[]>([
  ["signup", ["confirmation", "invite"]],
  ["invite", ["confirmation", "invite"]],
  ["recovery", ["recovery", "magiclink"]],
  ["magiclink", ["magiclink", "recovery"]],
  ["email_change", ["email_change_new", "email_change_current"]],
  ["email", ["confirmation", "invite", "magiclink", "recovery"]],
]);
/** The tokens of a code sent to a phone (POST only, with the phone). */
const PHONE_TYPES = new Map<string, TokenType[]>([
  ["sms", ["confirmation"]],
  ["phone_change", ["phone_change"]],
]);

/**
 * The audit entry of a used token besides the sign-in's own: an address or number proven (the
 * sign-up done, or an invitation accepted), or a change of address or number made.
 */
const VERIFY_AUDIT: Partial<
  Record<TokenType, { action: AuditAction; traits: (channel: string) => Record<string, unknown> }>
> = {
  confirmation: { action: "user_signedup", traits: (channel) => ({ provider: channel }) },
  invite: { action: "invite_accepted", traits: (channel) => ({ provider: channel }) },
  email_change_new: { action: "user_modified", traits: () => ({ email_changed: true }) },
  email_change_current: { action: "user_modified", traits: () => ({ email_changed: true }) },
  phone_change: { action: "user_modified", traits: () => ({ phone_changed: true }) },
};

const OTHER_LINK_MESSAGE =
  "Confirmation link accepted. Please proceed to confirm link sent to the other email";

type Verified =
  { kind: "signed_in"; user: UserRow } | { kind: "needs_other_link" } | { kind: "invalid" };

/**
 * What using a token does to its user. A token counts only for what it was sent to: a
 * confirmation sent to the user's phone never confirms their email, and the other way round.
 */
async function applyVerification(
  q: Queryable,
  token: OneTimeToken,
  channel: "email" | "phone",
  mailerAutoconfirm: boolean,
  notify: (to: { email: string | null }, event: SecurityEvent) => Promise<void>,
): Promise<Verified> {
  const user = await findUserById(q, token.user_id, true);
  if (!user) return { kind: "invalid" };
  /**
   * The account's first proof keeps its password only when it is the confirmation of the sign-up
   * that set it, and nobody asked for another confirmation since (models/first-proof.ts).
   */
  const firstProof = async () => {
    const never = neverProven(user);
    if (!(channel === "email" ? addressUnproven(user) : never)) return;
    const keep = never && token.token_type === "confirmation" && !user.confirmation_voids_password;
    await voidWhatCameBeforeProof(q, user.id, keep, never);
  };
  switch (token.token_type) {
    case "confirmation":
    case "invite":
      if (channel === "phone") {
        if (token.relates_to !== user.phone) return { kind: "invalid" };
        await firstProof();
        return { kind: "signed_in", user: await markPhoneConfirmed(q, user.id) };
      }
      if (token.relates_to !== user.email) return { kind: "invalid" };
      await firstProof();
      return { kind: "signed_in", user: await markEmailConfirmed(q, user.id) };
    case "recovery":
    case "magiclink":
      if (token.relates_to !== user.email) return { kind: "invalid" };
      await deleteTokens(q, user.id, ["recovery", "magiclink"]);
      await firstProof();
      return { kind: "signed_in", user: await markEmailConfirmed(q, user.id) };
    case "email_change_new":
    case "email_change_current": {
      const step = await confirmEmailChange(q, token, mailerAutoconfirm);
      if (step.kind !== "changed") return step;
      // The address the account leaves is told (GoTrue's email_changed notice).
      if (user.email !== step.user.email)
        await notify(user, { kind: "email_changed", newEmail: step.user.email! });
      return { kind: "signed_in", user: step.user };
    }
    case "phone_change": {
      const changed = await confirmPhoneChange(q, user.id, token);
      if (!changed) return { kind: "invalid" };
      await notify(changed, phoneNotice(user.phone, changed.phone!));
      return { kind: "signed_in", user: changed };
    }
    default:
      return { kind: "invalid" };
  }
}

const expiredLink = () =>
  new AuthError(403, ErrorCode.otp_expired, "Email link is invalid or has expired");
const expiredCode = () =>
  new AuthError(403, ErrorCode.otp_expired, "Token has expired or is invalid");
const banned = () => new AuthError(403, ErrorCode.user_banned, "User is banned");

/** GoTrue's `error` parameter of an error redirect, by status. */
const OAUTH_ERRORS: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized_client",
  403: "access_denied",
  500: "server_error",
  503: "temporarily_unavailable",
};

type Outcome =
  | { kind: "session"; session: Awaited<ReturnType<typeof signIn>> }
  | { kind: "code"; code: string }
  | { kind: "message" };

export default async function verify(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config, mailer } = app;

  /**
   * Uses the token and answers for it, in one transaction: nothing is used up when the answer is
   * an error. A link with a PKCE flow state yields an auth code instead of a session. A token not
   * found is counted as a wrong code by `countMiss`, once the transaction is over.
   */
  function verifyToken(
    request: FastifyRequest,
    find: (tx: Queryable) => Promise<OneTimeToken | undefined>,
    channel: "email" | "phone",
    invalid: () => AuthError,
    pkceAllowed: boolean,
    countMiss?: () => Promise<void>,
  ): Promise<Outcome> {
    let missed = false;
    const method = `${channel}_${invalid === expiredLink ? "link" : "code"}`;
    const verifying = db
      .transaction(async (tx): Promise<Outcome> => {
        const used = await find(tx);
        if (!used) {
          missed = true;
          throw invalid();
        }
        const verified = await applyVerification(
          tx,
          used,
          channel,
          config.mailerAutoconfirm,
          (to, event) => notifyOwner(tx, mailer, to, event, config.siteUrl),
        );
        if (verified.kind === "invalid") throw invalid();
        if (verified.kind === "needs_other_link") return { kind: "message" };
        if (isBanned(verified.user)) throw banned();
        const audited = VERIFY_AUDIT[used.token_type];
        if (audited)
          await auditUser(tx, request, verified.user, audited.action, audited.traits(channel));
        if (pkceAllowed && used.flow_state_id) {
          const code = await issueAuthCode(tx, used.flow_state_id);
          if (!code)
            throw new AuthError(
              400,
              ErrorCode.flow_state_not_found,
              "No associated flow state found.",
            );
          return { kind: "code", code };
        }
        // Whatever the type, the session's method is otp (a PKCE code carries its flow's).
        return { kind: "session", session: await signIn(tx, ctx, verified.user, "otp", request) };
      })
      .then((outcome) => {
        mailer.flush(); // a notice the change queued
        return outcome;
      })
      .catch(async (err: unknown) => {
        if (missed) await countMiss?.();
        throw isUniqueViolation(err) ? invalid() : err; // address or number taken meanwhile
      });
    return countOutcome(verifications, { method }, verifying);
  }

  app.get("/verify", { onRequest: ctx.limits.hook("verify") }, async (request, reply) => {
    const token = queryParam(request, "token") ?? "";
    const type = queryParam(request, "type") ?? "";
    if (!type)
      throw new AuthError(400, ErrorCode.validation_failed, "Verify requires a verification type");
    if (!token)
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Verify requires a token or a token hash",
      );
    const redirectTo = redirectFor(request, config);
    const pkce = token.startsWith(PKCE_PREFIX);
    let outcome: Outcome;
    try {
      const types = EMAIL_TYPES.get(type);
      if (!types)
        throw new AuthError(400, ErrorCode.validation_failed, "Invalid email verification type");
      outcome = await verifyToken(
        request,
        (tx) => consumeTokenHash(tx, token, types),
        "email",
        expiredLink,
        true,
      );
    } catch (err) {
      if (!(err instanceof AuthError)) throw err;
      const params = {
        ...(OAUTH_ERRORS[err.status] ? { error: OAUTH_ERRORS[err.status]! } : {}),
        error_code: err.code,
        error_description: err.message,
      };
      // GoTrue's prepErrorRedirectURL: the error in the fragment, and in the query too for PKCE.
      return see(
        reply,
        redirectWith(redirectTo, {
          query: pkce ? params : undefined,
          fragment: { ...params, sb: "" },
        }),
      );
    }
    switch (outcome.kind) {
      case "message": {
        // GoTrue's prepRedirectURL: the message in the fragment, and in the query too for PKCE;
        // the query is written again either way.
        const message = { message: OTHER_LINK_MESSAGE };
        return see(
          reply,
          redirectWith(redirectTo, {
            query: pkce ? message : {},
            fragment: { ...message, sb: "" },
          }),
        );
      }
      case "code":
        // GoTrue's prepPKCERedirectURL: the code in the query, the fragment left as it was.
        return see(reply, redirectWith(redirectTo, { query: { code: outcome.code } }));
      case "session": {
        const s = outcome.session;
        return see(
          reply,
          redirectWith(redirectTo, {
            fragment: {
              access_token: s.access_token,
              expires_at: String(s.expires_at),
              expires_in: String(s.expires_in),
              refresh_token: s.refresh_token,
              sb: "",
              token_type: "bearer",
              type,
            },
          }),
        );
      }
    }
  });

  app.post("/verify", { onRequest: ctx.limits.hook("verify") }, async (request) => {
    const body = readBody(request);
    const type = presentString(body.type);
    if (!type)
      throw new AuthError(400, ErrorCode.validation_failed, "Verify requires a verification type");
    const token = presentString(body.token);
    const tokenHash = presentString(body.token_hash);
    if ((token === undefined) === (tokenHash === undefined))
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Verify requires either a token or a token hash",
      );
    const email = presentString(body.email);
    const phone = presentString(body.phone);

    let outcome: Outcome;
    if (token !== undefined) {
      // A code: with a phone (and no email) it is a phone's code, with an email an email's.
      let code: { sentTo: string; channel: "email" | "phone"; types: TokenType[] | undefined };
      if (phone !== undefined && email === undefined) {
        code = { sentTo: readPhone(phone), channel: "phone", types: PHONE_TYPES.get(type) };
      } else if (email !== undefined && phone === undefined) {
        const address = email.trim().toLowerCase();
        if (!/^[^@\s]+@[^@\s]+$/.test(address))
          throw new AuthError(422, ErrorCode.validation_failed, "Invalid email format");
        code = { sentTo: address, channel: "email", types: EMAIL_TYPES.get(type) };
      } else {
        throw new AuthError(
          400,
          ErrorCode.validation_failed,
          "Only an email address or phone number should be provided on verify",
        );
      }
      // A type that has no code of this kind matches no token, as in GoTrue.
      const { sentTo, channel, types } = code;
      outcome = await verifyToken(
        request,
        async (tx) => (types ? consumeCode(tx, sentTo, token, types) : undefined),
        channel,
        expiredCode,
        false,
        async () => {
          if (types) await countWrongCode(db, sentTo, types);
        },
      );
    } else {
      if (email !== undefined || phone !== undefined || body.redirect_to !== undefined)
        throw new AuthError(
          400,
          ErrorCode.validation_failed,
          "Only the token_hash and type should be provided",
        );
      const types = EMAIL_TYPES.get(type);
      if (!types)
        throw new AuthError(400, ErrorCode.validation_failed, "Invalid email verification type");
      outcome = await verifyToken(
        request,
        (tx) => consumeTokenHash(tx, tokenHash!, types),
        "email",
        expiredLink,
        false,
      );
    }
    if (outcome.kind === "message") return { msg: OTHER_LINK_MESSAGE, code: "200" };
    if (outcome.kind === "code") throw expiredLink(); // never: PKCE is for links only
    return outcome.session;
  });
}

function see(reply: FastifyReply, location: string) {
  return reply.code(303).header("location", location).header("cache-control", "no-store").send();
}
