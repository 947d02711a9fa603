// POST /functions/v1/account-deletion: "Delete account". The caller proves they are the owner
// with their current password (`current_password`) or the code GET /auth/v1/reauthenticate
// emailed (`nonce`), from a session that passed their second factor if they have one; then, in one
// transaction, the account is erased (auth/models/account-erasure.ts: every session ends, so the
// access token in hand stops working) and a last email tells the address it was deleted. Leads
// and the newsletter subscription under the address stay, as the privacy policy keeps them; the
// team's history shows "a former member" where it named the person (decision 0046).
import type { FastifyInstance } from "fastify";
import { FUNCTIONS } from "../../common/functions.ts";
import { accountDeletedEmail } from "../auth/emails/account-emails.ts";
import { AuthError } from "../auth/errors.ts";
import { auditUser } from "../auth/audit.ts";
import { eraseAccount } from "../auth/models/account-erasure.ts";
import { findUserById } from "../auth/models/users.ts";
import { proveOwnerByPasswordOrCode } from "../auth/owner-proof.ts";
import { LIMITS } from "../platform/rate-limit.ts";
import { FunctionError } from "./errors.ts";
import { ownAccount } from "./own-account.ts";

/** A string field of the body, absent when empty. */
function field(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | null)?.[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string")
    throw new FunctionError(400, "bad_request", `${name} must be a string.`, {
      [name]: "Must be text.",
    });
  return value;
}

export function registerAccountDeletionFunction(app: FastifyInstance) {
  app.post(
    `/${FUNCTIONS.accountDeletion}`,
    { config: { rateLimit: LIMITS.account } },
    async (request) => {
      const { user } = await ownAccount(app, request, "delete your account");
      const body = request.body ?? {};
      if (typeof body !== "object" || Array.isArray(body))
        throw new FunctionError(400, "bad_request", "Send a JSON object.");
      const given = {
        currentPassword: field(body, "current_password"),
        nonce: field(body, "nonce"),
      };
      // An anonymous account has nothing to prove with: its session is its only credential.
      if (!user.is_anonymous)
        await proveOwnerByPasswordOrCode(app.db, user, given).catch((err: unknown) => {
          // GoTrue's codes, in the functions' shape: the site reads them as it reads PUT /user's.
          if (err instanceof AuthError) throw new FunctionError(err.status, err.code, err.message);
          throw err;
        });
      await app.db.transaction(async (tx) => {
        // Under the user's lock: of two deletions at the same moment, one erases and emails.
        const locked = await findUserById(tx, user.id, true);
        if (!locked || !(await eraseAccount(tx, user.id))) return;
        // Logged by the address the account had (the audit log keeps it its year: decision 0048).
        await auditUser(tx, request, locked, "user_deleted", { by: "self" });
        if (locked.email)
          await app.mailer.enqueue(tx, accountDeletedEmail(locked.email, app.config.siteUrl));
      });
      app.mailer.flush();
      return { deleted: true };
    },
  );
}
