// Links made by the admin API: POST /admin/generate_link answers with the link and code of any
// email action (signup, invite, magiclink, recovery, email_change_current, email_change_new)
// without sending anything; POST /invite creates the account when needed and emails the
// invitation. Both for the service-role key only.
import crypto from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Queryable } from "../../db/database.ts";
import { authenticateAdmin } from "../authenticate.ts";
import { auditAdmin } from "../audit.ts";
import type { AuthContext } from "../context.ts";
import { inviteEmail, verifyUrl } from "../emails/account-emails.ts";
import { sendLinkEmail } from "../emails/link-emails.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { createOneTimeToken, type TokenType } from "../models/one-time-tokens.ts";
import { mergeMetadata, stampInvited } from "../models/user-admin.ts";
import {
  createUser,
  findUserByEmail,
  identitiesOf,
  requestEmailChange,
  serializeUser,
  setMetadata,
  stampEmailSent,
  type UserRow,
} from "../models/users.ts";
import { userJson } from "../models/user-json.ts";
import { checkPasswordPolicy, hashPassword } from "../passwords.ts";
import { redirectFor } from "../redirects.ts";
import { presentString, readBody, readEmail, readMetadata } from "../request.ts";
import { emailExists } from "./admin.ts";

/** Each link type: the token it makes, and the `type` of its /verify link. */
const LINK_TYPES = new Map<string, { token: TokenType; verify: string }>([
  ["signup", { token: "confirmation", verify: "signup" }],
  ["invite", { token: "invite", verify: "invite" }],
  ["magiclink", { token: "magiclink", verify: "magiclink" }],
  ["recovery", { token: "recovery", verify: "recovery" }],
  ["email_change_current", { token: "email_change_current", verify: "email_change" }],
  ["email_change_new", { token: "email_change_new", verify: "email_change" }],
]);

export default async function adminLinks(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config, mailer } = app;
  const onRequest = async (request: FastifyRequest) => {
    await authenticateAdmin(ctx.tokens, request);
  };
  const redirectOf = (request: FastifyRequest, body: Record<string, unknown>) =>
    redirectFor(request, config, presentString(body.redirect_to));

  app.post("/admin/generate_link", { onRequest }, async (request) => {
    const body = readBody(request);
    // GoTrue reads the body into typed fields before it checks any of them.
    let type = presentString(body.type) ?? "";
    let password = presentString(body.password) ?? "";
    const askedNewEmail = presentString(body.new_email);
    const redirectTo = redirectOf(request, body);
    const data = readMetadata(body.data);
    const email = readEmail(body.email);
    const known = await findUserByEmail(db, email);
    if (!known) {
      // A sign-in link for a new address is a signup link, as in GoTrue (mail.go): its account
      // gets a random password in place of any sent along, and stays unconfirmed until used.
      if (type === "magiclink") {
        type = "signup";
        password = randomPassword();
      }
      if (["recovery", "email_change_current", "email_change_new"].includes(type))
        throw new AuthError(404, ErrorCode.user_not_found, "User with this email not found");
    }
    const link = LINK_TYPES.get(type);
    if (!link)
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        `Invalid email action link type requested: ${type}`,
      );
    // A signup link for a new address makes its account: with a password, as a sign-up would.
    const passwordHash =
      type === "signup" && !known
        ? await hashPassword(
            checkPasswordPolicy(
              password,
              config.passwordMinLength,
              "Signup requires a valid password",
            ),
          )
        : null;
    const newEmail = type.startsWith("email_change") ? readEmail(askedNewEmail) : undefined;

    return db.transaction(async (tx) => {
      let user = await findUserByEmail(tx, email, true);
      // An address confirmed as given (MAILER_AUTOCONFIRM) may be invited: its use proves it (0041).
      if (type === "signup" && user?.email_confirmed_at) throw emailExists();
      if (type === "invite" && user?.email_confirmed_at && !user.email_unproven)
        throw emailExists();
      if (newEmail !== undefined && (await findUserByEmail(tx, newEmail))) throw emailExists();
      user ??= await createUser(tx, { email, passwordHash, metadata: data, confirmed: false });
      if (type === "signup" && known && body.data !== undefined)
        user = await setMetadata(tx, user.id, mergeMetadata(user.raw_user_meta_data, data));
      if (newEmail !== undefined) user = await requestEmailChange(tx, user.id, newEmail);
      const { code, linkToken } = await createOneTimeToken(tx, {
        userId: user.id,
        type: link.token,
        email: link.token === "email_change_new" ? newEmail : email,
      });
      user = await stamp(tx, user, type);
      await auditAdmin(tx, request, type === "invite" ? "user_invited" : "user_modified", user, {
        link_type: type,
      });
      return {
        ...(await userJson(tx, user)),
        action_link: verifyUrl(config.siteUrl, linkToken, link.verify, redirectTo),
        email_otp: code,
        hashed_token: linkToken,
        verification_type: type,
        redirect_to: redirectTo,
      };
    });
  });

  app.post("/invite", { onRequest }, async (request) => {
    const body = readBody(request);
    const email = readEmail(body.email);
    const redirectTo = redirectOf(request, body);
    const data = readMetadata(body.data);
    const invited = await db.transaction(async (tx) => {
      const existing = await findUserByEmail(tx, email, true);
      // An address confirmed as given (MAILER_AUTOCONFIRM) is invited: the invitation's use is its
      // first proof, which voids what its first sign-up made (decision 0041).
      if (existing?.email_confirmed_at && !existing.email_unproven) throw emailExists();
      const user =
        existing ??
        (await createUser(tx, { email, passwordHash: null, metadata: data, confirmed: false }));
      await sendLinkEmail(tx, mailer, {
        userId: user.id,
        to: email,
        tokenType: "invite",
        verifyType: "invite",
        pkce: undefined,
        siteUrl: config.siteUrl,
        redirectTo,
        compose: inviteEmail,
      });
      const stamped = await stampInvited(tx, user.id);
      await auditAdmin(tx, request, "user_invited", stamped);
      return serializeUser(stamped, await identitiesOf(tx, user.id));
    });
    mailer.flush();
    return invited;
  });
}

/** 64 random characters (384 bits) from the URL-safe alphabet: within every length limit. */
const randomPassword = () => crypto.randomBytes(48).toString("base64url");

/** Records when the link's kind of email was last made for the user, as if it had been sent. */
function stamp(q: Queryable, user: UserRow, type: string): Promise<UserRow> {
  switch (type) {
    case "invite":
      return stampInvited(q, user.id);
    case "signup":
      return stampEmailSent(q, user.id, "confirmation");
    case "magiclink":
    case "recovery":
      return stampEmailSent(q, user.id, "recovery");
    default:
      return Promise.resolve(user);
  }
}
