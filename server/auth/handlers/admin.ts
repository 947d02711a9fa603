// The admin API, for the service-role key only: /admin/users (a page of users with GoTrue's
// pagination headers, one user, creation, update, hard or soft deletion), a user's MFA factors
// (list, removal) and passkeys (list, removal). Each route checks the credentials first, then the user in the path.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isUniqueViolation, type DatabaseError, type Queryable } from "../../db/database.ts";
import { isUuid } from "../../platform/uuid.ts";
import { authenticateAdmin } from "../authenticate.ts";
import { auditAdmin, auditTeamRole } from "../audit.ts";
import type { AuthContext } from "../context.ts";
import { paginationLinks, readPage } from "../pagination.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { resetSecondFactors } from "../models/factor-reset.ts";
import { deleteFactor, factorsJson, findFactor, serializeFactor } from "../models/factors.ts";
import { deletePasskey, findPasskey, listPasskeys, serializePasskey } from "../models/passkeys.ts";
import {
  createUserAsAdmin,
  deleteUser,
  identitiesOfUsers,
  listUsers,
  softDeleteUser,
  updateUserAsAdmin,
  usersWhoHad,
  type AdminUserChanges,
} from "../models/user-admin.ts";
import { lowerToAal1 } from "../models/sessions.ts";
import { findUserByPhone } from "../models/user-phones.ts";
import { findUserByEmail, findUserById, serializeUser, type UserRow } from "../models/users.ts";
import { userJson } from "../models/user-json.ts";
import { checkPasswordPolicy, hashPassword, MAX_PASSWORD_BYTES } from "../passwords.ts";
import {
  presentString,
  queryParam,
  readBanDuration,
  readBody,
  readEmail,
  readFlag,
  readMetadata,
  readPhone,
  unreadable,
} from "../request.ts";

export const emailExists = () =>
  new AuthError(
    422,
    ErrorCode.email_exists,
    "A user with this email address has already been registered",
  );
const phoneExists = () =>
  new AuthError(422, ErrorCode.phone_exists, "Phone number already registered by another user");
const invalid = (message: string) => new AuthError(400, ErrorCode.validation_failed, message);

type UserParams = { Params: { id: string; factorId?: string; passkeyId?: string } };

export default async function admin(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db } = app;
  const onRequest = async (request: FastifyRequest) => {
    await authenticateAdmin(ctx.tokens, request);
  };

  /** The user named in the path (after the credentials, as GoTrue's loadUser). */
  async function pathUser(q: Queryable, id: string, lock = false): Promise<UserRow> {
    if (!isUuid(id))
      throw new AuthError(404, ErrorCode.validation_failed, "user_id must be an UUID");
    const user = await findUserById(q, id, lock);
    if (!user) throw new AuthError(404, ErrorCode.user_not_found, "User not found");
    return user;
  }

  app.get("/admin/users", { onRequest }, async (request, reply) => {
    // Ours, not GoTrue's: `former_email` lists the accounts that had this address before their
    // current one (decision 0041), e.g. a team member who changed theirs.
    const formerEmail = presentString(queryParam(request, "former_email"));
    if (formerEmail !== undefined) {
      const users = await usersWhoHad(db, formerEmail.trim());
      const identities = await identitiesOfUsers(
        db,
        users.map((u) => u.id),
      );
      reply.header("x-total-count", String(users.length));
      return {
        users: users.map((u) => serializeUser(u, identities.get(u.id)!)),
        aud: "authenticated",
      };
    }
    const { page, perPage } = readPage(request);
    const ascending = readSort(queryParam(request, "sort"));
    const filter = presentString(queryParam(request, "filter"));
    const { users, total } = await listUsers(db, { page, perPage, filter, ascending });
    const identities = await identitiesOfUsers(
      db,
      users.map((u) => u.id),
    );
    reply.header("x-total-count", String(total));
    reply.header("link", paginationLinks(request, page, perPage, total));
    return {
      users: users.map((u) => serializeUser(u, identities.get(u.id)!)),
      aud: "authenticated",
    };
  });

  app.get<UserParams>("/admin/users/:id", { onRequest }, async (request) =>
    userJson(db, await pathUser(db, request.params.id)),
  );

  app.post("/admin/users", { onRequest }, async (request) => {
    const body = readBody(request);
    const email = presentString(body.email);
    const phone = presentString(body.phone);
    if (email === undefined && phone === undefined)
      throw invalid("Cannot create a user without either an email or phone");
    // GoTrue's order: each address is checked, and found taken or not, before anything else.
    const newEmail = email === undefined ? undefined : readEmail(email);
    if (newEmail && (await findUserByEmail(db, newEmail))) throw emailExists();
    const newPhone = phone === undefined ? undefined : readPhone(phone);
    if (newPhone && (await findUserByPhone(db, newPhone))) throw phoneExists();
    const who = { email: newEmail, phone: newPhone };
    const password = presentString(body.password);
    const importedHash = presentString(body.password_hash);
    // GoTrue (admin.go) refuses any password sent with a hash, an empty one too; null is none.
    if (body.password != null && importedHash !== undefined)
      throw invalid("Only a password or a password hash should be provided");
    if (importedHash !== undefined && !/^\$argon2(id|i|d)\$/.test(importedHash))
      throw invalid("Only Argon2 password hashes can be imported");
    if (password !== undefined && Buffer.byteLength(password) > MAX_PASSWORD_BYTES)
      throw invalid(`Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`);
    const id = presentString(body.id);
    if (id !== undefined && !isUuid(id)) throw invalid("ID must conform to the uuid v4 format");
    if (id === "00000000-0000-0000-0000-000000000000") throw invalid("ID cannot be a nil uuid");
    const fields = readUserFields(body);
    // Without a password or hash the user signs in by link or code only.
    const passwordHash = importedHash ?? (password ? await hashPassword(password) : null);
    const bannedUntil = fields.bannedUntil ?? null;
    const user = await db
      .transaction(async (tx) => {
        // Again under the transaction: another admin may have taken one meanwhile.
        if (who.email && (await findUserByEmail(tx, who.email))) throw emailExists();
        if (who.phone && (await findUserByPhone(tx, who.phone))) throw phoneExists();
        const created = await createUserAsAdmin(tx, {
          ...who,
          ...fields,
          id,
          passwordHash,
          role: fields.role ?? "authenticated",
          userMetadata: fields.userMetadata ?? {},
          bannedUntil,
        });
        await auditAdmin(tx, request, "user_signedup", created, { provider: "admin" });
        await auditTeamRole(tx, request, { ...created, raw_app_meta_data: {} }, created);
        return userJson(tx, created);
      })
      .catch(uniqueAsExists(who));
    return user;
  });

  app.put<UserParams>("/admin/users/:id", { onRequest }, async (request) => {
    await pathUser(db, request.params.id);
    const body = readBody(request);
    const email = presentString(body.email);
    const phone = presentString(body.phone);
    // GoTrue's order: the email, the phone, then the other fields.
    const newEmail = email === undefined ? undefined : readEmail(email);
    const newPhone = phone === undefined ? undefined : readPhone(phone);
    const changes: AdminUserChanges = { ...readUserFields(body), email: newEmail, phone: newPhone };
    if (body.password !== undefined) {
      const password = checkPasswordPolicy(body.password, app.config.passwordMinLength, null);
      changes.passwordHash = await hashPassword(password);
    }
    return db
      .transaction(async (tx) => {
        const user = await pathUser(tx, request.params.id, true);
        if (changes.email !== undefined && changes.email !== user.email) {
          const owner = await findUserByEmail(tx, changes.email);
          if (owner && owner.id !== user.id) throw emailExists();
        }
        if (changes.phone !== undefined && changes.phone !== user.phone) {
          const owner = await findUserByPhone(tx, changes.phone);
          if (owner && owner.id !== user.id) throw phoneExists();
        }
        const updated = await updateUserAsAdmin(tx, user, changes);
        await auditAdmin(tx, request, "user_modified", updated);
        await auditTeamRole(tx, request, user, updated);
        return userJson(tx, updated);
      })
      .catch(uniqueAsExists(changes));
  });

  app.delete<UserParams>("/admin/users/:id", { onRequest }, async (request) => {
    await pathUser(db, request.params.id);
    const soft = readFlag(readBody(request).should_soft_delete, "should_soft_delete");
    await db.transaction(async (tx) => {
      const user = await pathUser(tx, request.params.id, true);
      await auditAdmin(tx, request, "user_deleted", user, { soft_delete: soft });
      if (soft) await softDeleteUser(tx, user);
      else await deleteUser(tx, user.id);
    });
    return {};
  });

  app.get<UserParams>("/admin/users/:id/factors", { onRequest }, async (request) => {
    const user = await pathUser(db, request.params.id);
    return factorsJson(db, user.id);
  });

  // Every factor of the user and their recovery codes go, and so do their sessions: the person
  // signs in again and sets a second factor up anew (a lost phone; decision 0038).
  app.delete<UserParams>("/admin/users/:id/factors", { onRequest }, async (request) => {
    const user = await pathUser(db, request.params.id);
    return db.transaction(async (tx) => {
      const factors = await resetSecondFactors(tx, user.id);
      for (const factor of factors)
        await auditAdmin(tx, request, "factor_deleted", user, { factor_id: factor.id });
      return factors.map(serializeFactor);
    });
  });

  app.delete<UserParams>("/admin/users/:id/factors/:factorId", { onRequest }, async (request) => {
    const user = await pathUser(db, request.params.id);
    const factorId = request.params.factorId!;
    if (!isUuid(factorId))
      throw new AuthError(404, ErrorCode.validation_failed, "factor_id must be an UUID");
    return db.transaction(async (tx) => {
      const factor = await findFactor(tx, user.id, factorId);
      if (!factor) throw new AuthError(404, ErrorCode.mfa_factor_not_found, "Factor not found");
      await lowerToAal1(tx, factor);
      await deleteFactor(tx, factor);
      await auditAdmin(tx, request, "factor_deleted", user, { factor_id: factor.id });
      return serializeFactor(factor);
    });
  });

  app.get<UserParams>("/admin/users/:id/passkeys", { onRequest }, async (request) => {
    const user = await pathUser(db, request.params.id);
    return (await listPasskeys(db, user.id)).map(serializePasskey);
  });

  app.delete<UserParams>(
    "/admin/users/:id/passkeys/:passkeyId",
    { onRequest },
    async (request, reply) => {
      const user = await pathUser(db, request.params.id);
      const passkeyId = request.params.passkeyId!;
      const passkey = isUuid(passkeyId) ? await findPasskey(db, user.id, passkeyId) : undefined;
      if (!passkey) throw new AuthError(404, ErrorCode.validation_failed, "Passkey not found");
      await db.transaction(async (tx) => {
        if (await deletePasskey(tx, passkey))
          await auditAdmin(tx, request, "passkey_deleted", user, { passkey_id: passkey.id });
      });
      return reply.code(204).send();
    },
  );
}

/** The fields creation and update share: role, both metadata, confirmations and a ban. */
function readUserFields(body: Record<string, unknown>) {
  const role = body.role ?? undefined; // null leaves a Go string field as it was
  if (role !== undefined && typeof role !== "string") throw unreadable("role must be a string");
  const banMs = readBanDuration(body.ban_duration);
  return {
    // Stored trimmed, as GoTrue's SetRole stores it; one of spaces only leaves the role as it was
    // (an empty role would make every token of the user unusable).
    role: role?.trim() || undefined,
    userMetadata: readObject(body.user_metadata, "user_metadata"),
    appMetadata: readObject(body.app_metadata, "app_metadata"),
    emailConfirm: readFlag(body.email_confirm, "email_confirm"),
    phoneConfirm: readFlag(body.phone_confirm, "phone_confirm"),
    bannedUntil:
      banMs === undefined ? undefined : banMs === 0 ? null : new Date(Date.now() + banMs),
  };
}

/** Metadata to merge, when the body has it (absent changes nothing). */
const readObject = (value: unknown, name: string) =>
  value === undefined ? undefined : readMetadata(value, name);

/**
 * A row that exists already: an address or number two admins took at once (the loser gets the
 * duplicate's answer), or a new user's id that is another user's (GoTrue checks the addresses
 * only, and answers the failed insert with a 500; here it is the client's mistake, a 422).
 */
function uniqueAsExists(who: { email?: string; phone?: string }) {
  return (err: unknown): never => {
    if (!isUniqueViolation(err)) throw err;
    const { constraint } = err as DatabaseError;
    if (constraint === "users_pkey")
      throw new AuthError(422, ErrorCode.user_already_exists, "A user with this ID already exists");
    throw constraint === "users_phone_key" || who.email === undefined
      ? phoneExists()
      : emailExists();
  };
}

/**
 * `sort=created_at`, `created_at asc` or `created_at desc` (the direction in any case), the one
 * order GoTrue allows, read as it reads it; newest first by default.
 */
function readSort(text: string | undefined): boolean {
  if (text === undefined) return false;
  const space = text.indexOf(" ");
  const field = space < 0 ? text : text.slice(0, space);
  if (field !== "created_at") throw invalid(`Bad Sort Parameters: bad field for sort '${field}'`);
  if (space < 0) return false;
  const direction = text.slice(space + 1);
  if (direction.toUpperCase() === "ASC") return true;
  if (direction.toUpperCase() === "DESC") return false;
  throw invalid(
    `Bad Sort Parameters: bad direction for sort '${direction}', only 'asc' and 'desc' allowed`,
  );
}
