// POST /resend: the sign-up confirmation (email), both links of an email change (both needed again), the
// confirmation code of a phone (sms), or the new number's code of a phone change. Always 200 {}
// (whether or not the address or number has an account); the message goes out only when there is
// something to send, at most once a minute per purpose.
import type { FastifyInstance } from "fastify";
import type { Queryable } from "../../db/database.ts";
import type { AuthContext } from "../context.ts";
import { sentRecently, spendEmailBudget } from "../emails/email-limits.ts";
import { sendConfirmationEmail, sendEmailChangeLinks } from "../emails/link-emails.ts";
import { AuthError, emailLoginsDisabled, ErrorCode } from "../errors.ts";
import { parsePkce } from "../models/flow-states.ts";
import { findUserByPhone } from "../models/user-phones.ts";
import { findUserByEmail } from "../models/users.ts";
import { redirectFor } from "../redirects.ts";
import { presentString, readBody, readEmail, readPhone } from "../request.ts";
import { sendPhoneCode } from "../sms/phone-codes.ts";

/** The types, and the budget each spends (per address or number asked for). */
const PURPOSES: Record<string, string> = {
  signup: "auth-confirmation",
  email_change: "auth-email-change",
  sms: "auth-sms",
  phone_change: "auth-sms",
};

export default async function resend(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config, mailer } = app;

  app.post("/resend", { onRequest: ctx.limits.hook("resend") }, async (request) => {
    const body = readBody(request);
    const type = presentString(body.type) ?? "";
    if (!Object.hasOwn(PURPOSES, type)) {
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Missing one of these types: signup, email_change, sms, phone_change",
      );
    }
    const pkce = type === "signup" || type === "email_change" ? parsePkce(body) : undefined;
    const rawEmail = presentString(body.email);
    const rawPhone = presentString(body.phone);
    if (rawEmail === undefined && type === "signup")
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Type provided requires an email address",
      );
    if (rawPhone === undefined && type === "sms")
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Type provided requires a phone number",
      );
    if (rawEmail !== undefined && rawPhone !== undefined)
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Only an email address or phone number should be provided.",
      );
    let by: { email: string } | { phone: string };
    if (rawEmail !== undefined) {
      if (!config.emailEnabled) throw emailLoginsDisabled(400);
      by = { email: readEmail(rawEmail) };
    } else if (rawPhone !== undefined) {
      if (!config.phoneEnabled)
        throw new AuthError(400, ErrorCode.phone_provider_disabled, "Phone logins are disabled");
      by = { phone: readPhone(rawPhone) };
    } else {
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Missing email address or phone number",
      );
    }
    const redirectTo = redirectFor(request, config);
    await spendEmailBudget(request, PURPOSES[type]!, by);

    // The message is found, made and sent after the answer, so that its time does not tell
    // whether the address or number has an account either; a Send SMS hook's refusal is logged,
    // not answered (decision 0021). A code goes out of any transaction, so that none waits on the
    // hook (PGlite's one connection would, and every request with it); an email's work is one.
    const client = { ip: request.ip };
    const texted = type === "sms" || type === "phone_change";
    const within = (work: (q: Queryable, lock: boolean) => Promise<void>) =>
      texted ? work(db, false) : db.transaction((tx) => work(tx, true));
    const resendMessage = async () => {
      await within(async (q, lock) => {
        const user =
          "email" in by
            ? await findUserByEmail(q, by.email, lock)
            : await findUserByPhone(q, by.phone, lock);
        if (!user) return;
        switch (type) {
          case "signup":
            if (
              !("email" in by) ||
              user.email_confirmed_at ||
              sentRecently(user.confirmation_sent_at)
            )
              return;
            await sendConfirmationEmail(
              q,
              mailer,
              { id: user.id, email: by.email },
              { pkce, siteUrl: config.siteUrl, redirectTo },
            );
            return;
          case "email_change": {
            const emailChange = user.email_change;
            if (!emailChange || sentRecently(user.email_change_sent_at)) return;
            // A change to an address that has an account goes nowhere; its owner was told once.
            if (await findUserByEmail(q, emailChange)) return;
            await sendEmailChangeLinks(q, mailer, user, emailChange, {
              pkce,
              siteUrl: config.siteUrl,
              redirectTo,
            });
            return;
          }
          case "sms":
            if (!("phone" in by) || user.phone_confirmed_at) return;
            await sendPhoneCode(q, app, ctx.sms, client, {
              user,
              phone: by.phone,
              purpose: "confirmation",
              channel: "sms",
            });
            return;
          case "phone_change": {
            // A change to a number that has an account goes nowhere.
            const phoneChange = user.phone_change;
            if (!config.phoneEnabled || !phoneChange || (await findUserByPhone(q, phoneChange)))
              return;
            await sendPhoneCode(q, app, ctx.sms, client, {
              user,
              phone: phoneChange,
              purpose: "phone_change",
              channel: "sms",
            });
          }
        }
      });
      mailer.flush();
    };
    app.afterAnswer.run(request, texted ? "resent text message" : "resent email", resendMessage);
    return {};
  });
}
