// GET /user and PUT /user (metadata, password, email change with confirmation of both addresses).
import type { FastifyInstance } from "fastify";
import { emailChangeEmail, emailTakenEmail } from "./auth-emails.ts";
import {
  assertMetadataSize,
  queryParam,
  readBody,
  readEmail,
  readMetadata,
  type AuthContext,
} from "./context.ts";
import { spendEmailBudget } from "./email-limits.ts";
import { AuthError, ErrorCode } from "./errors.ts";
import { parsePkce } from "./flow-states.ts";
import { sendLinkEmail } from "./link-emails.ts";
import { deleteTokens } from "./one-time-tokens.ts";
import { checkPasswordPolicy, hashPassword, verifyPassword } from "./passwords.ts";
import { safeRedirect } from "./redirects.ts";
import { authenticate } from "./sessions.ts";
import {
  findUserByEmail,
  findUserById,
  identitiesOf,
  serializeUser,
  type UserRow,
} from "./users.ts";

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
        current = await save(
          tx,
          "UPDATE auth.users SET raw_user_meta_data = $2, updated_at = now() WHERE id = $1 RETURNING *",
          [user.id, JSON.stringify(merged)],
        );
      }
      if (passwordHash) {
        current = await save(
          tx,
          "UPDATE auth.users SET encrypted_password = $2, updated_at = now() WHERE id = $1 RETURNING *",
          [user.id, passwordHash],
        );
        // A new password signs out every other session and voids pending recovery links.
        await tx.query("DELETE FROM auth.sessions WHERE user_id = $1 AND id <> $2", [
          user.id,
          session.id,
        ]);
        await deleteTokens(tx, user.id, ["recovery"]);
      }
      if (changeEmail) {
        current = await save(
          tx,
          "UPDATE auth.users SET email_change = $2, email_change_sent_at = now(), email_change_confirm_status = 0, updated_at = now() WHERE id = $1 RETURNING *",
          [user.id, newEmail],
        );
        const taken = await findUserByEmail(tx, newEmail);
        if (taken) {
          // Answered like any change (no account is revealed); the address's owner is told instead.
          // Links of an earlier change request no longer apply.
          await deleteTokens(tx, user.id, ["email_change_new", "email_change_current"]);
          await mailer.enqueue(tx, emailTakenEmail(newEmail, config.siteUrl));
        } else {
          for (const [type, to, role] of [
            ["email_change_new", newEmail, "new"],
            ["email_change_current", current.email, "current"],
          ] as const) {
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

async function save(
  tx: Parameters<Parameters<FastifyInstance["db"]["transaction"]>[0]>[0],
  sql: string,
  params: unknown[],
): Promise<UserRow> {
  const [row] = await tx.query<UserRow>(sql, params);
  return row!;
}
