// GET /user and PUT /user (metadata, password, email change with confirmation of both addresses).
import type { FastifyInstance } from "fastify";
import { authenticate } from "../authenticate.ts";
import type { AuthContext } from "../context.ts";
import { emailChangeEmail, emailTakenEmail } from "../emails/account-emails.ts";
import { spendEmailBudget } from "../emails/email-limits.ts";
import { sendLinkEmail } from "../emails/link-emails.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { parsePkce } from "../models/flow-states.ts";
import { deleteTokens } from "../models/one-time-tokens.ts";
import { endSessions } from "../models/sessions.ts";
import {
  findUserByEmail,
  findUserById,
  identitiesOf,
  requestEmailChange,
  serializeUser,
  setMetadata,
  setPassword,
} from "../models/users.ts";
import { checkPasswordPolicy, hashPassword, verifyPassword } from "../passwords.ts";
import { safeRedirect } from "../redirects.ts";
import { assertMetadataSize, queryParam, readBody, readEmail, readMetadata } from "../request.ts";

export default async function user(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config, mailer } = app;

  app.get("/user", async (request) => {
    const { user } = await authenticate(db, ctx.tokens, request);
    return serializeUser(user, await identitiesOf(db, user.id));
  });

  app.put("/user", { onRequest: ctx.emailRequests }, async (request) => {
    const { user, session } = await authenticate(db, ctx.tokens, request);
    const body = readBody(request);
    if (body.app_metadata !== undefined)
      throw new AuthError(403, ErrorCode.not_admin, "User not allowed");
    if (body.phone !== undefined)
      throw new AuthError(422, ErrorCode.phone_provider_disabled, "Phone logins are disabled");
    const data = body.data === undefined ? undefined : readMetadata(body.data);
    const password = body.password === undefined ? undefined : checkPasswordPolicy(body.password);
    const newEmail = body.email === undefined ? undefined : readEmail(body.email);
    const changeEmail = newEmail !== undefined && newEmail !== user.email;
    const pkce = changeEmail ? parsePkce(body) : undefined;
    const redirectTo = safeRedirect(queryParam(request, "redirect_to"), config.siteUrl);
    if (password !== undefined && (await verifyPassword(user.encrypted_password, password))) {
      throw new AuthError(
        422,
        ErrorCode.same_password,
        "New password should be different from the old password.",
      );
    }
    const passwordHash = password === undefined ? undefined : await hashPassword(password);
    if (changeEmail) await spendEmailBudget(request, "auth-email-change", newEmail);

    const updated = await db.transaction(async (tx) => {
      let current = (await findUserById(tx, user.id, true))!;
      if (data) {
        // Merged into user_metadata; keys set to null are removed.
        const merged = { ...current.raw_user_meta_data, ...data };
        for (const [k, v] of Object.entries(data)) if (v === null) delete merged[k];
        assertMetadataSize(merged);
        current = await setMetadata(tx, user.id, merged);
      }
      if (passwordHash) {
        current = await setPassword(tx, user.id, passwordHash);
        // A new password signs out every other session too.
        await endSessions(tx, session, "others");
      }
      if (changeEmail) {
        current = await requestEmailChange(tx, user.id, newEmail);
        const taken = await findUserByEmail(tx, newEmail);
        if (taken) {
          // Answered like any change (no account is revealed); the address's owner is told instead.
          // Links of an earlier change request no longer apply.
          await deleteTokens(tx, user.id, ["email_change_new", "email_change_current"]);
          await mailer.enqueue(tx, emailTakenEmail(newEmail, config.siteUrl));
        } else {
          const recipients = [
            ["email_change_new", newEmail, "new"],
            ["email_change_current", current.email, "current"],
          ] as const;
          // A user without an address yet (phone or anonymous) confirms the new one only.
          for (const [type, to, role] of recipients) {
            if (!to) continue;
            await sendLinkEmail(tx, mailer, {
              userId: user.id,
              to,
              tokenType: type,
              verifyType: "email_change",
              pkce,
              siteUrl: config.siteUrl,
              redirectTo,
              compose: (link) => emailChangeEmail(link, role, newEmail),
            });
          }
        }
      }
      return current;
    });
    mailer.flush();
    return serializeUser(updated, await identitiesOf(db, user.id));
  });
}
