// POST /otp (and GoTrue's older POST /magiclink): passwordless sign-in. An email address gets a
// sign-in link with its code; a phone number gets a code by text message (channel sms, or
// whatsapp). An address or number without an account gets one (unless create_user is false),
// confirmed by using the link or code. The answer is always {}: with create_user false, an unknown
// address or number is sent nothing, and answered alike (GoTrue answers 422 otp_disabled there,
// which tells who has an account); the message is made and sent after the answer, so its time
// tells nothing either.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isUniqueViolation } from "../../db/database.ts";
import type { AuthContext } from "../context.ts";
import { magicLinkEmail } from "../emails/account-emails.ts";
import { sentRecently, spendEmailBudget } from "../emails/email-limits.ts";
import { sendConfirmationEmail, sendLinkEmail } from "../emails/link-emails.ts";
import { AuthError, emailLoginsDisabled, ErrorCode } from "../errors.ts";
import { disputePassword } from "../models/first-proof.ts";
import { parsePkce, type Pkce } from "../models/flow-states.ts";
import { deleteUser } from "../models/user-admin.ts";
import { findUserByPhone } from "../models/user-phones.ts";
import { createUser, findUserByEmail, stampEmailSent } from "../models/users.ts";
import { redirectFor } from "../redirects.ts";
import {
  emailOrPhone,
  presentString,
  readBody,
  readEmail,
  readMetadata,
  readPhone,
} from "../request.ts";
import { readChannel, sendPhoneCode } from "../sms/phone-codes.ts";
import type { SmsChannel } from "../sms/sms-sender.ts";

export default async function otp(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config, mailer } = app;

  app.post("/otp", { onRequest: ctx.limits.hook("otp") }, async (request) => {
    const body = readBody(request);
    const { email, phone } = emailOrPhone(
      body,
      "Only an email address or phone number should be provided",
    );
    if (email !== undefined && presentString(body.channel) !== undefined)
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Channel should only be specified with Phone OTP",
      );
    if (email !== undefined && !config.emailEnabled) throw emailLoginsDisabled(422);
    const pkce = parsePkce(body);
    if (body.create_user !== undefined && typeof body.create_user !== "boolean")
      throw new AuthError(400, ErrorCode.bad_json, "Could not parse request body as JSON");
    const metadata = readMetadata(body.data);
    const creates = body.create_user !== false && !config.signupDisabled;
    // Answered alike, after the same limits, whether or not anything is sent: the answer never
    // tells whether an address or number has an account (nor, with sign-ups off, that it has none).
    if (email !== undefined) await emailOtp(request, readEmail(email), pkce, metadata, creates);
    else if (phone !== undefined) await phoneOtp(request, phone, body.channel, metadata, creates);
    else throw new AuthError(400, ErrorCode.validation_failed, "One of email or phone must be set");
    return {};
  });

  // The older form of the email sign-in link (GoTrue keeps it; supabase-js calls /otp).
  app.post("/magiclink", { onRequest: ctx.limits.hook("magiclink") }, async (request) => {
    const body = readBody(request);
    const email = presentString(body.email);
    if (email === undefined)
      throw new AuthError(422, ErrorCode.validation_failed, "Password recovery requires an email");
    if (!config.emailEnabled) throw emailLoginsDisabled(422);
    const address = readEmail(email);
    await emailOtp(request, address, parsePkce(body), readMetadata(body.data), true);
    return {};
  });

  /**
   * The sign-in link: to an account's address, or (new or unconfirmed) its confirmation link; an
   * address without an account gets one only when `creates`. Only the budget is spent before the
   * answer: the link is made and sent after it, so that whether the address has an account changes
   * neither the answer nor its time.
   */
  async function emailOtp(
    request: FastifyRequest,
    email: string,
    pkce: Pkce | undefined,
    metadata: Record<string, unknown>,
    creates: boolean,
  ) {
    const redirectTo = redirectFor(request, config);
    await spendEmailBudget(request, "auth-magiclink", { email });
    app.afterAnswer.run(request, "sign-in link", () =>
      sendEmailOtp(email, pkce, metadata, creates, redirectTo),
    );
  }

  async function sendEmailOtp(
    email: string,
    pkce: Pkce | undefined,
    metadata: Record<string, unknown>,
    creates: boolean,
    redirectTo: string,
  ) {
    await db
      .transaction(async (tx) => {
        let user = await findUserByEmail(tx, email, true);
        if (!user) {
          if (!creates) return;
          user = await createUser(tx, {
            email,
            passwordHash: null,
            metadata,
            confirmed: config.mailerAutoconfirm,
          });
        }
        if (!user.email_confirmed_at) {
          // Whoever set a password on this unconfirmed account, its confirmation by a sign-in
          // link voids it (decision 0041).
          await disputePassword(tx, user.id);
          if (sentRecently(user.confirmation_sent_at)) return;
          await sendConfirmationEmail(
            tx,
            mailer,
            { id: user.id, email },
            { pkce, siteUrl: config.siteUrl, redirectTo, compose: (l) => magicLinkEmail(l, "new") },
          );
          return;
        }
        // A sign-in link shares the recovery email's minute, as in GoTrue.
        if (sentRecently(user.recovery_sent_at)) return;
        await sendLinkEmail(tx, mailer, {
          userId: user.id,
          to: email,
          tokenType: "magiclink",
          verifyType: "magiclink",
          pkce,
          siteUrl: config.siteUrl,
          redirectTo,
          compose: (l) => magicLinkEmail(l, "existing"),
        });
        await stampEmailSent(tx, user.id, "recovery");
      })
      .catch(ignoreConcurrentSignUp);
    mailer.flush();
  }

  /**
   * The code by text message; a number without an account gets one (confirmed by the code) only
   * when `creates`. As for an address, only the budget is spent before the answer: the code is
   * made and sent after it, so neither the answer nor its time tells whether the number has an
   * account. A refusal of the Send SMS hook is logged and leaves no code (nor a new user) behind;
   * it is not the answer, as GoTrue would make it (decision 0021).
   */
  async function phoneOtp(
    request: FastifyRequest,
    rawPhone: string,
    rawChannel: unknown,
    metadata: Record<string, unknown>,
    creates: boolean,
  ) {
    if (!config.phoneEnabled)
      throw new AuthError(400, ErrorCode.phone_provider_disabled, "Unsupported phone provider");
    const phone = readPhone(rawPhone);
    const channel: SmsChannel = readChannel(rawChannel, config.sms.hook !== undefined);
    await spendEmailBudget(request, "auth-sms", { phone });
    const client = { ip: request.ip };
    app.afterAnswer.run(request, "text message", () =>
      sendPhoneOtp(client, phone, channel, metadata, creates),
    );
  }

  /** Out of any transaction, so that none waits on the Send SMS hook (sms/phone-codes.ts). */
  async function sendPhoneOtp(
    client: { ip: string },
    phone: string,
    channel: SmsChannel,
    metadata: Record<string, unknown>,
    creates: boolean,
  ) {
    const found = await findUserByPhone(db, phone);
    if (!found && !creates) return;
    // A sign-in code confirms an unconfirmed number without its password: that voids it (0041).
    if (found && !found.phone_confirmed_at) await disputePassword(db, found.id);
    const user =
      found ??
      (await db
        .transaction((tx) =>
          createUser(tx, {
            phone,
            passwordHash: null,
            metadata,
            confirmed: config.sms.autoconfirm,
          }),
        )
        .catch(ignoreConcurrentSignUp));
    if (!user) return;
    await sendPhoneCode(db, app, ctx.sms, client, {
      user,
      phone,
      purpose: "confirmation",
      channel,
    }).catch(async (err: unknown) => {
      // A first code the hook refused leaves no account behind, as GoTrue's request leaves none.
      if (!found) await deleteUser(db, user.id);
      throw err;
    });
  }
}

/** Two first requests for one address at the same moment: the loser's code was already sent. */
function ignoreConcurrentSignUp(err: unknown) {
  if (!isUniqueViolation(err)) throw err;
}
