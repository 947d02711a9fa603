// GET /user and PUT /user (metadata, password, email change with confirmation of both addresses,
// phone change with a code to the new number).
import type { FastifyInstance } from "fastify";
import type { Queryable } from "../../db/database.ts";
import { authenticate, ofRequestAudience } from "../authenticate.ts";
import { auditUser } from "../audit.ts";
import type { AuthContext } from "../context.ts";
import { emailTakenEmail } from "../emails/account-emails.ts";
import { repeatsPendingChange, spendEmailBudget } from "../emails/email-limits.ts";
import { sendEmailChangeLinks } from "../emails/link-emails.ts";
import { notifyOwner, phoneNotice } from "../emails/security-notices.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { parsePkce } from "../models/flow-states.ts";
import { deleteTokens } from "../models/one-time-tokens.ts";
import { type ClaimedStamp } from "../models/sent-stamps.ts";
import { endSessions } from "../models/sessions.ts";
import { confirmPhoneChange, findUserByPhone, requestPhoneChange } from "../models/user-phones.ts";
import {
  applyEmailChange,
  findUserByEmail,
  findUserById,
  requestEmailChange,
  setMetadata,
  setPassword,
  type UserRow,
} from "../models/users.ts";
import { userJson } from "../models/user-json.ts";
import { checkPasswordPolicy, hashPassword, verifyPassword } from "../passwords.ts";
import { redirectFor } from "../redirects.ts";
import {
  assertMetadataSize,
  presentString,
  readBody,
  readEmail,
  readMetadata,
  readPhone,
} from "../request.ts";
import { readChannel, sendPhoneCodeAfterAnswer } from "../sms/phone-codes.ts";
import { emailExists } from "./admin.ts";
import { provedEmailJustNow, proveOwnerForPassword, useNonceForPassword } from "../owner-proof.ts";
import { listFactors } from "../models/factors.ts";

const REAUTHENTICATION_AFTER_MS = 24 * 3600 * 1000;

export default async function user(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config, mailer } = app;

  app.get("/user", async (request) => {
    const { user, claims } = await authenticate(db, ctx.tokens, request);
    if (!ofRequestAudience(request, claims))
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "Token audience doesn't match request audience",
      );
    return userJson(db, user);
  });

  app.put("/user", { onRequest: ctx.limits.hook("user") }, async (request) => {
    const { user, session } = await authenticate(db, ctx.tokens, request);
    const body = readBody(request);
    // GoTrue's order: the email, the phone (E.164, its channel) and the password are checked first.
    const rawEmail = presentString(body.email);
    const newEmail = rawEmail === undefined ? undefined : readEmail(rawEmail);
    const rawPhone = presentString(body.phone);
    const newPhone = rawPhone === undefined ? undefined : readPhone(rawPhone);
    const channel =
      newPhone === undefined ? "sms" : readChannel(body.channel, config.sms.hook !== undefined);
    const password =
      body.password === undefined
        ? undefined
        : checkPasswordPolicy(body.password, config.passwordMinLength, null);
    if (body.app_metadata !== undefined)
      throw new AuthError(
        403,
        ErrorCode.not_admin,
        "Updating app_metadata requires admin privileges",
      );
    const changeEmail = newEmail !== undefined && newEmail !== user.email;
    const changePhone = newPhone !== undefined && newPhone !== user.phone;
    // With a verified second factor, what signs in changes only from a session that used it.
    if (
      (password || changeEmail || changePhone) &&
      session.aal !== "aal2" &&
      (await listFactors(db, user.id)).some((f) => f.status === "verified")
    )
      throw new AuthError(
        401,
        ErrorCode.insufficient_aal,
        "AAL2 session is required to update email or password when MFA is enabled.",
      );
    // An anonymous user's password needs an address or number to sign in with.
    if (user.is_anonymous && password && newEmail === undefined && newPhone === undefined)
      throw new AuthError(
        422,
        ErrorCode.validation_failed,
        "Updating password of an anonymous user without an email or phone is not allowed",
      );
    // A single sign-on's account is the company's: what signs it in changes only there.
    if (user.is_sso_user && (password || changeEmail || changePhone || body.nonce))
      throw new AuthError(
        422,
        ErrorCode.user_sso_managed,
        "Updating email, phone, password of a SSO account only possible via SSO",
      );
    if (changePhone && !config.phoneEnabled)
      throw new AuthError(422, ErrorCode.phone_provider_disabled, "Phone logins are disabled");
    const data = body.data === undefined ? undefined : readMetadata(body.data);
    const pkce = changeEmail ? parsePkce(body) : undefined;
    const redirectTo = redirectFor(request, config);
    // A session signed in within the day may change its password; an older one, only with the
    // code GET /reauthenticate sent.
    let reauthenticated = false;
    if (
      password !== undefined &&
      config.passwordChangeNeedsReauthentication &&
      Date.now() - new Date(session.created_at).getTime() > REAUTHENTICATION_AFTER_MS
    ) {
      await useNonceForPassword(db, user, body);
      reauthenticated = true;
    }
    if (
      password !== undefined &&
      config.passwordChangeNeedsCurrentPassword &&
      !user.is_anonymous &&
      !provedEmailJustNow(session.amr)
    )
      await proveOwnerForPassword(db, user, session.amr, body, reauthenticated);
    if (password !== undefined && (await verifyPassword(user.encrypted_password, password))) {
      throw new AuthError(
        422,
        ErrorCode.same_password,
        "New password should be different from the old password.",
      );
    }
    const passwordHash = password === undefined ? undefined : await hashPassword(password);
    // An anonymous user's new address applies at once with MAILER_AUTOCONFIRM, as a sign-up's
    // would: no link is sent.
    const emailAtOnce = changeEmail && user.is_anonymous && config.mailerAutoconfirm;
    if (changeEmail && !emailAtOnce)
      await spendEmailBudget(request, "auth-email-change", { email: newEmail });
    if (changePhone && !config.sms.autoconfirm)
      await spendEmailBudget(request, "auth-sms", { phone: newPhone }, { userId: user.id });

    /**
     * The new number texted its code after the answer, its user as before this change, and the
     * minute the change claimed for it.
     */
    let codeFor: { user: UserRow; phone: string; minute: ClaimedStamp } | undefined;
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
        await notifyOwner(tx, mailer, current, { kind: "password_changed" }, config.siteUrl);
      }
      // The same change asked again within the minute changes nothing: the links (or the notice)
      // already sent stay the ones that count, and none go again.
      if (
        changeEmail &&
        !repeatsPendingChange(current.email_change, current.email_change_sent_at, newEmail)
      ) {
        const taken = await findUserByEmail(tx, newEmail);
        if (emailAtOnce) {
          if (taken) throw emailExists();
          current = await applyEmailChange(tx, user.id, newEmail, false);
        } else if (taken) {
          // Answered like any change (no account is revealed); the address's owner is told instead.
          // Links of an earlier change request no longer apply.
          current = await requestEmailChange(tx, user.id, newEmail);
          await deleteTokens(tx, user.id, ["email_change_new", "email_change_current"]);
          await mailer.enqueue(tx, emailTakenEmail(newEmail, config.siteUrl));
        } else {
          current = await sendEmailChangeLinks(tx, mailer, current, newEmail, {
            pkce,
            siteUrl: config.siteUrl,
            redirectTo,
          });
        }
      }
      if (changePhone) current = await changeNumber(tx, current, newPhone);
      if (passwordHash) await auditUser(tx, request, current, "user_updated_password");
      // What else changed or was asked for: an address or number changes once it is proven.
      const asked = [
        ...(data ? ["user_metadata"] : []),
        ...(changeEmail ? ["email"] : []),
        ...(changePhone ? ["phone"] : []),
      ];
      if (asked.length) await auditUser(tx, request, current, "user_modified", { fields: asked });
      return current;
    });
    mailer.flush();
    if (codeFor)
      sendPhoneCodeAfterAnswer(db, app, ctx.sms, request, {
        ...codeFor,
        purpose: "phone_change",
        channel,
      });
    return userJson(db, updated);

    /**
     * A new number gets a code; the change applies once the code is used (at once with SMS
     * autoconfirm). A number that has an account gets nothing, and the answer is the same: both
     * record the change now, and the code is made and sent after the answer, so that its time does
     * not tell either (a refusal of the Send SMS hook is logged; the user asks again): decision 0021.
     */
    async function changeNumber(tx: Queryable, current: UserRow, phone: string): Promise<UserRow> {
      const taken = await findUserByPhone(tx, phone);
      if (config.sms.autoconfirm) {
        if (taken)
          throw new AuthError(
            422,
            ErrorCode.phone_exists,
            "Phone number already registered by another user",
          );
        await requestPhoneChange(tx, current.id, phone);
        const changed = (await confirmPhoneChange(tx, current.id, undefined))!;
        await notifyOwner(tx, mailer, changed, phoneNotice(current.phone, phone), config.siteUrl);
        return changed;
      }
      // The same change asked again within the minute changes nothing: the code already texted
      // (or being texted) stays the one that works, and no other is sent.
      if (repeatsPendingChange(current.phone_change, current.phone_change_sent_at, phone))
        return current;
      await deleteTokens(tx, current.id, ["phone_change"]);
      const { user: changed, minute } = await requestPhoneChange(tx, current.id, phone);
      if (!taken) codeFor = { user: current, phone, minute };
      return changed;
    }
  });
}
