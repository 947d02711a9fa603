// POST /resend (the sign-up confirmation, or the new address's link of an email change): always
// 200 {} (whether or not the address has an account); the email goes out only when there is
// something to send, at most once a minute per address.
import type { FastifyInstance } from "fastify";
import type { AuthContext } from "../context.ts";
import { emailChangeEmail } from "../emails/account-emails.ts";
import { sentRecently, spendEmailBudget } from "../emails/email-limits.ts";
import { sendConfirmationEmail, sendLinkEmail } from "../emails/link-emails.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { parsePkce } from "../models/flow-states.ts";
import { findUserByEmail, stampEmailSent } from "../models/users.ts";
import { safeRedirect } from "../redirects.ts";
import { queryParam, readBody, readEmail } from "../request.ts";

export default async function resend(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config, mailer } = app;

  app.post("/resend", { onRequest: ctx.emailRequests }, async (request) => {
    const body = readBody(request);
    const type = body.type;
    if (type === "sms" || type === "phone_change")
      throw new AuthError(400, ErrorCode.phone_provider_disabled, "Phone logins are disabled");
    if (type !== "signup" && type !== "email_change") {
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Missing one of these types: signup, email_change, sms, phone_change",
      );
    }
    if (body.email === undefined)
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Type provided requires an email address",
      );
    const email = readEmail(body.email);
    const pkce = parsePkce(body);
    const redirectTo = safeRedirect(queryParam(request, "redirect_to"), config.siteUrl);
    await spendEmailBudget(
      request,
      type === "signup" ? "auth-confirmation" : "auth-email-change",
      email,
    );
    await db.transaction(async (tx) => {
      const user = await findUserByEmail(tx, email, true);
      if (!user) return;
      if (type === "signup") {
        if (user.email_confirmed_at || sentRecently(user.confirmation_sent_at)) return;
        await sendConfirmationEmail(
          tx,
          mailer,
          { id: user.id, email },
          {
            pkce,
            siteUrl: config.siteUrl,
            redirectTo,
          },
        );
        return;
      }
      const emailChange = user.email_change;
      if (!emailChange || sentRecently(user.email_change_sent_at)) return;
      // A change to an address that has an account goes nowhere; its owner was told once.
      if (await findUserByEmail(tx, emailChange)) return;
      await sendLinkEmail(tx, mailer, {
        userId: user.id,
        to: emailChange,
        tokenType: "email_change_new",
        verifyType: "email_change",
        pkce: undefined,
        siteUrl: config.siteUrl,
        redirectTo,
        compose: (link) => emailChangeEmail(link, "new", emailChange),
      });
      await stampEmailSent(tx, user.id, "email_change");
    });
    mailer.flush();
    return {};
  });
}
