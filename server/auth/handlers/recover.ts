// POST /recover: always 200 {} (whether or not the address has an account); the recovery email
// goes out only when there is an account, at most once a minute per address.
import type { FastifyInstance } from "fastify";
import type { AuthContext } from "../context.ts";
import { recoveryEmail } from "../emails/account-emails.ts";
import { sentRecently, spendEmailBudget } from "../emails/email-limits.ts";
import { sendLinkEmail } from "../emails/link-emails.ts";
import { AuthError, emailLoginsDisabled, ErrorCode } from "../errors.ts";
import { parsePkce } from "../models/flow-states.ts";
import { findUserByEmail, stampEmailSent } from "../models/users.ts";
import { redirectFor } from "../redirects.ts";
import { presentString, readBody, readEmail } from "../request.ts";

export default async function recover(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config, mailer } = app;

  app.post("/recover", { onRequest: ctx.limits.hook("recover") }, async (request) => {
    if (!config.emailEnabled) throw emailLoginsDisabled(400);
    const body = readBody(request);
    if (presentString(body.email) === undefined)
      throw new AuthError(400, ErrorCode.validation_failed, "Password recovery requires an email");
    const email = readEmail(body.email);
    const pkce = parsePkce(body);
    const redirectTo = redirectFor(request, config);
    await spendEmailBudget(request, "auth-recovery", { email });
    // The link is made and sent after the answer, so that its time does not tell either.
    app.afterAnswer.run(request, "recovery email", async () => {
      await db.transaction(async (tx) => {
        const user = await findUserByEmail(tx, email, true);
        if (!user || sentRecently(user.recovery_sent_at)) return;
        await sendLinkEmail(tx, mailer, {
          userId: user.id,
          to: email,
          tokenType: "recovery",
          verifyType: "recovery",
          pkce,
          siteUrl: config.siteUrl,
          redirectTo,
          compose: recoveryEmail,
        });
        await stampEmailSent(tx, user.id, "recovery");
      });
      mailer.flush();
    });
    return {};
  });
}
