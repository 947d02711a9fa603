// POST /signup with an email or a phone number. With confirmations on (the default) a new address
// gets a confirmation email, a new number a code by text message, and the answer is the user
// without a session; an address or number that already has an account gets an answer shaped
// exactly like that (and an address's owner a notice), so sign-up reveals no account.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isUniqueViolation, type Queryable } from "../../db/database.ts";
import { auditUser } from "../audit.ts";
import type { AuthContext } from "../context.ts";
import { alreadyRegisteredEmail } from "../emails/account-emails.ts";
import { emailedRecently, sentRecently, spendEmailBudget } from "../emails/email-limits.ts";
import { sendConfirmationEmail } from "../emails/link-emails.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { disputePassword } from "../models/first-proof.ts";
import { parsePkce, type Pkce } from "../models/flow-states.ts";
import { signIn } from "../models/sessions.ts";
import { findUserByPhone } from "../models/user-phones.ts";
import {
  createAnonymousUser,
  createUser,
  decoyUser,
  findUserByEmail,
  identitiesOf,
  serializeUser,
  type UserRow,
} from "../models/users.ts";
import { checkPasswordPolicy, hashPassword } from "../passwords.ts";
import { redirectFor } from "../redirects.ts";
import { presentString, readBody, readEmail, readMetadata, readPhone } from "../request.ts";
import { readChannel, sendPhoneCodeAfterAnswer } from "../sms/phone-codes.ts";
import type { SmsChannel } from "../sms/sms-sender.ts";

export const signupDisabled = () =>
  new AuthError(422, ErrorCode.signup_disabled, "Signups not allowed for this instance");
const alreadyRegistered = () =>
  new AuthError(422, ErrorCode.user_already_exists, "User already registered");

export default async function signup(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { config, db, mailer } = app;

  app.post("/signup", async (request) => {
    const body = readBody(request);
    const rawEmail = presentString(body.email);
    const rawPhone = presentString(body.phone);
    if (rawEmail === undefined && rawPhone === undefined) {
      if (!config.anonymousEnabled)
        throw new AuthError(
          422,
          ErrorCode.anonymous_provider_disabled,
          "Anonymous sign-ins are disabled",
        );
      await ctx.limits.take("anonymous", request);
      if (config.signupDisabled) throw signupDisabled();
      const metadata = readMetadata(body.data);
      return db.transaction(async (tx) => {
        const user = await createAnonymousUser(tx, metadata);
        await auditUser(tx, request, user, "user_signedup", { provider: "anonymous" });
        return signIn(tx, ctx, user, "anonymous", request);
      });
    }
    await ctx.limits.take("signup", request);
    if (config.signupDisabled) throw signupDisabled();
    const password = checkPasswordPolicy(
      body.password,
      config.passwordMinLength,
      "Signup requires a valid password",
    );
    if (rawEmail !== undefined && rawPhone !== undefined)
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Only an email address or phone number should be provided on signup.",
      );
    let channel: SmsChannel = "sms";
    if (rawPhone !== undefined) {
      channel = readChannel(body.channel, config.sms.hook !== undefined);
      // A phone sign-up answers with its session in the body: there is no link to protect.
      if (presentString(body.code_challenge) !== undefined)
        throw new AuthError(
          400,
          ErrorCode.validation_failed,
          "PKCE not supported for phone signups",
        );
    }
    const pkce = parsePkce(body);
    const metadata = readMetadata(body.data);
    if (rawEmail !== undefined) {
      if (!config.emailEnabled)
        throw new AuthError(400, ErrorCode.email_provider_disabled, "Email signups are disabled");
      return emailSignup(request, readEmail(rawEmail));
    }
    if (!config.phoneEnabled)
      throw new AuthError(400, ErrorCode.phone_provider_disabled, "Phone signups are disabled");
    return phoneSignup(request, readPhone(rawPhone));

    async function emailSignup(request: FastifyRequest, email: string) {
      const redirectTo = redirectFor(request, config);
      // Hash in every case, so the time taken does not tell a new address from a known one.
      const passwordHash = await hashPassword(password);
      if (!config.mailerAutoconfirm)
        await spendEmailBudget(request, "auth-confirmation", { email });

      const sendConfirmation = (tx: Queryable, user: UserRow, pkce: Pkce | undefined) =>
        sendConfirmationEmail(
          tx,
          mailer,
          { id: user.id, email },
          { pkce, siteUrl: config.siteUrl, redirectTo },
        );

      const result = await db
        .transaction(async (tx) => {
          const existing = await findUserByEmail(tx, email, true);
          if (config.mailerAutoconfirm) {
            if (existing) throw alreadyRegistered();
            const user = await createUser(tx, { email, passwordHash, metadata, confirmed: true });
            await auditUser(tx, request, user, "user_signedup", { provider: "email" });
            return signIn(tx, ctx, user, "password", request);
          }
          if (existing?.email_confirmed_at) {
            await auditUser(tx, request, existing, "user_repeated_signup", { provider: "email" });
            if (!(await emailedRecently(tx, "auth-already-registered", email))) {
              await mailer.enqueue(tx, alreadyRegisteredEmail(email, config.siteUrl));
            }
            return decoyUser({ email }, metadata);
          }
          if (existing) {
            // Not confirmed yet: send the confirmation again (at most once a minute). The stored
            // password stays, but this second sign-up may be the address's owner's and the first
            // somebody else's: confirming now voids it (decision 0041), and the person sets one
            // after the link signs them in. The answer is a decoy too: the stored user (its id,
            // metadata and creation time) would tell that somebody signed up with this address before.
            await disputePassword(tx, existing.id);
            await auditUser(tx, request, existing, "user_repeated_signup", { provider: "email" });
            if (!sentRecently(existing.confirmation_sent_at))
              await sendConfirmation(tx, existing, pkce);
            return decoyUser({ email }, metadata);
          }
          const created = await createUser(tx, {
            email,
            passwordHash,
            metadata,
            confirmed: false,
          });
          const user = await sendConfirmation(tx, created, pkce);
          await auditUser(tx, request, user, "user_confirmation_requested", { provider: "email" });
          return serializeUser(user, await identitiesOf(tx, user.id));
        })
        .catch((err: unknown) => {
          // Two sign-ups for one address at the same moment: the loser answers as if it came second.
          if (!isUniqueViolation(err)) throw err;
          if (config.mailerAutoconfirm) throw alreadyRegistered();
          return decoyUser({ email }, metadata);
        });
      mailer.flush();
      return result;
    }

    /**
     * As for an address; a number's owner cannot be told (a text message carries only a code).
     * The code is made and sent after the answer, so that a call to the Send SMS hook does not
     * tell a new number from a taken one by the answer's time; a refusal of the hook is logged
     * and keeps no code, and the number asks again (`/resend`, or signing up again): decision 0021.
     */
    async function phoneSignup(request: FastifyRequest, phone: string) {
      const passwordHash = await hashPassword(password);
      const autoconfirm = config.sms.autoconfirm;
      if (!autoconfirm) await spendEmailBudget(request, "auth-sms", { phone });
      const { answer, codeFor } = await db
        .transaction(async (tx) => {
          const existing = await findUserByPhone(tx, phone, true);
          if (autoconfirm) {
            if (existing) throw alreadyRegistered();
            const user = await createUser(tx, { phone, passwordHash, metadata, confirmed: true });
            await auditUser(tx, request, user, "user_signedup", { provider: "phone" });
            return { answer: await signIn(tx, ctx, user, "password", request) };
          }
          if (existing && !existing.phone_confirmed_at) await disputePassword(tx, existing.id);
          if (existing) {
            await auditUser(tx, request, existing, "user_repeated_signup", { provider: "phone" });
            return {
              answer: decoyUser({ phone }, metadata),
              codeFor: existing.phone_confirmed_at ? undefined : existing,
            };
          }
          const created = await createUser(tx, { phone, passwordHash, metadata, confirmed: false });
          await auditUser(tx, request, created, "user_confirmation_requested", {
            provider: "phone",
          });
          // Its code is on its way when the answer arrives, as the decoy's is.
          const sent = { ...created, confirmation_sent_at: new Date() };
          return {
            answer: serializeUser(sent, await identitiesOf(tx, created.id)),
            codeFor: created,
          };
        })
        .catch((err: unknown) => {
          if (!isUniqueViolation(err)) throw err;
          if (autoconfirm) throw alreadyRegistered();
          return { answer: decoyUser({ phone }, metadata), codeFor: undefined };
        });
      if (codeFor)
        sendPhoneCodeAfterAnswer(db, app, ctx.sms, request, {
          user: codeFor,
          phone,
          purpose: "confirmation",
          channel,
        });
      return answer;
    }
  });
}
