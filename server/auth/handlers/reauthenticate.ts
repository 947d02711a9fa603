// GET /reauthenticate: a signed-in user asks for a code that confirms a sensitive change (the
// password, when GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION is on): sent to their
// confirmed email address, or else to their confirmed phone number; used as PUT /user's nonce.
import type { FastifyInstance } from "fastify";
import type { Queryable } from "../../db/database.ts";
import { authenticate } from "../authenticate.ts";
import type { AuthContext } from "../context.ts";
import { reauthenticationEmail } from "../emails/account-emails.ts";
import { EMAIL_FREQUENCY_SECONDS, spendEmailBudget } from "../emails/email-limits.ts";
import { AuthError, ErrorCode, sentTooRecently } from "../errors.ts";
import { consumeCode, countWrongCode, createOneTimeToken } from "../models/one-time-tokens.ts";
import { findUserById, stampEmailSent, type UserRow } from "../models/users.ts";

/** Where a user's reauthentication code goes: their email address, else their phone. */
const destination = (user: UserRow) =>
  user.email ? { email: user.email } : user.phone ? { phone: user.phone } : undefined;

/**
 * Uses the user's reauthentication code; refuses a wrong, used or expired one (a wrong one is
 * counted: the code dies after a few).
 */
export async function useReauthenticationNonce(q: Queryable, user: UserRow, nonce: string) {
  const to = destination(user);
  const sentTo = to && (to.email ?? to.phone!);
  const used = sentTo && (await consumeCode(q, sentTo, nonce, ["reauthentication"]));
  if (sentTo && !used) await countWrongCode(q, sentTo, ["reauthentication"]);
  if (!used || used.user_id !== user.id)
    throw new AuthError(
      422,
      ErrorCode.reauthentication_not_valid,
      "Nonce has expired or is invalid",
    );
}

export default async function reauthenticate(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config, mailer } = app;

  app.get("/reauthenticate", { onRequest: ctx.limits.hook("reauthenticate") }, async (request) => {
    const { user } = await authenticate(db, ctx.tokens, request);
    const to = destination(user);
    if (!to)
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Reauthentication requires the user to have an email or a phone number",
      );
    if (to.email && !user.email_confirmed_at)
      throw new AuthError(422, ErrorCode.email_not_confirmed, "Please verify your email first.");
    if (to.phone && !user.phone_confirmed_at)
      throw new AuthError(422, ErrorCode.phone_not_confirmed, "Please verify your phone first.");
    // Once a minute; a texted code's refusal names SMS, as GoTrue's does.
    const refuseRepeat = (sentAt: Date | null) => {
      const refusal = sentTooRecently(
        to.phone ? ErrorCode.over_sms_send_rate_limit : ErrorCode.over_email_send_rate_limit,
        sentAt,
        EMAIL_FREQUENCY_SECONDS,
      );
      if (refusal) throw refusal;
    };
    refuseRepeat(user.reauthentication_sent_at);
    await spendEmailBudget(request, "auth-reauthentication", to, { userId: user.id });
    await db.transaction(async (tx) => {
      // Read again under the user's lock: of requests at the same moment, one sends a code.
      refuseRepeat((await findUserById(tx, user.id, true))!.reauthentication_sent_at);
      const { code } = await createOneTimeToken(tx, {
        userId: user.id,
        type: "reauthentication",
        ...to,
        ...(to.phone ? { ttlSeconds: config.sms.otpExpSeconds, length: config.sms.otpLength } : {}),
      });
      if (to.email) await mailer.enqueue(tx, reauthenticationEmail(to.email, code, config.siteUrl));
      else await ctx.sms.send(tx, request, { user, phone: to.phone!, otp: code });
      await stampEmailSent(tx, user.id, "reauthentication");
    });
    mailer.flush();
    return {};
  });
}
