// Passkeys as GoTrue serves them (passkey_*.go), while GOTRUE_PASSKEY_ENABLED: POST
// /passkeys/registration/options and /verify (a signed-in user adds a passkey), POST
// /passkeys/authentication/options and /verify (a passkey signs its person in: a session as a
// password sign-in makes, `passkey` in its amr), GET /passkeys, PATCH and DELETE /passkeys/{id}.
// A challenge is taken once and lives GOTRUE_WEBAUTHN_CHALLENGE_EXPIRY_DURATION; an answer that
// fails any check (its challenge, origin, relying party, signature, counter, or the account it
// names) is the same refusal, which says nothing of whose passkey it was.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isUuid } from "../../platform/uuid.ts";
import { auditUser } from "../audit.ts";
import { authenticate, authenticateForMfa } from "../authenticate.ts";
import type { AuthContext } from "../context.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { hasVerifiedFactor } from "../models/factors.ts";
import {
  addPasskey,
  createPasskeyChallenge,
  deletePasskey,
  findPasskey,
  findPasskeyByCredentialId,
  listPasskeys,
  recordPasskeyUse,
  renamePasskey,
  serializePasskey,
  storedCredential,
  takePasskeyChallenge,
  type ChallengeKind,
  type PasskeyRow,
} from "../models/passkeys.ts";
import { signIn, type SessionRow } from "../models/sessions.ts";
import { findUserById, isBanned, type UserRow } from "../models/users.ts";
import { readBody } from "../request.ts";
import {
  answeredCredentialId,
  answeredUserHandle,
  CeremonyRefused,
  relyingParty,
  verificationFailed,
} from "../webauthn.ts";

/** GoTrue's name of a new passkey (it looks the authenticator's AAGUID up in a list we lack). */
const DEFAULT_NAME = "Passkey";
const MAX_NAME_LENGTH = 120;

const invalid = (message: string) => new AuthError(400, ErrorCode.validation_failed, message);
const passkeyNotFound = () => new AuthError(404, ErrorCode.validation_failed, "Passkey not found");
const tooMany = () =>
  new AuthError(422, ErrorCode.too_many_passkeys, "Maximum number of passkeys reached");

/**
 * GoTrue's requirePasskeyManagementAAL: once the user has a verified second factor, adding or
 * removing a passkey needs a session that passed it (aal2).
 */
export async function assertMayManagePasskeys(
  db: FastifyInstance["db"],
  user: UserRow,
  session: SessionRow,
) {
  if (session.aal !== "aal2" && (await hasVerifiedFactor(db, user.id)))
    throw new AuthError(
      403,
      ErrorCode.insufficient_aal,
      "AAL2 session is required to manage passkeys when MFA is enabled",
    );
}

export default async function passkeys(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config } = app;
  const rp = relyingParty(config.webauthn);

  // Every /passkeys route (this plugin's own) answers GoTrue's 404 while passkeys are off.
  app.addHook("onRequest", async () => {
    if (!config.passkeys.enabled)
      throw new AuthError(404, ErrorCode.passkey_disabled, "Passkeys are disabled");
  });

  /** A ceremony's answer as auth-js sends it: the challenge's id and the credential. */
  function readAnswer(request: FastifyRequest) {
    const body = readBody(request);
    const challengeId = body.challenge_id;
    if (challengeId === undefined || challengeId === null || challengeId === "")
      throw invalid("challenge_id is required");
    if (body.credential === undefined || body.credential === null)
      throw invalid("credential is required");
    if (typeof challengeId !== "string" || !isUuid(challengeId))
      throw invalid("challenge_id must be a valid UUID");
    return { challengeId, credential: body.credential as unknown };
  }

  /** The challenge answered (taken: it is gone), alive; else GoTrue's 400s. */
  async function takeChallenge(id: string, kind: ChallengeKind, userId: string | null) {
    const challenge = await takePasskeyChallenge(db, id, kind, userId);
    if (!challenge)
      throw new AuthError(
        400,
        ErrorCode.webauthn_challenge_not_found,
        "Challenge not found or already used",
      );
    if (new Date(challenge.expires_at).getTime() < Date.now())
      throw new AuthError(400, ErrorCode.webauthn_challenge_expired, "Challenge has expired");
    return challenge.session_data.challenge;
  }

  /** GoTrue's options answer: the challenge's id, the browser's options, when it expires. */
  async function optionsAnswer(
    options: { challenge: string },
    kind: ChallengeKind,
    userId: string | null,
  ) {
    const seconds = config.webauthn.challengeSeconds;
    const stored = await createPasskeyChallenge(db, {
      userId,
      kind,
      challenge: options.challenge,
      seconds,
    });
    return {
      challenge_id: stored.id,
      options,
      expires_at: Math.floor(new Date(stored.expires_at).getTime() / 1000),
    };
  }

  app.post("/passkeys/registration/options", async (request) => {
    const { user, session } = await authenticateForMfa(db, ctx.tokens, request);
    await assertMayManagePasskeys(db, user, session);
    const existing = await listPasskeys(db, user.id);
    if (existing.length >= config.passkeys.maxPerUser) throw tooMany();
    const options = await rp.registrationOptions(user, existing.map(storedCredential), {
      residentKey: "required",
      requireResidentKey: true,
      userVerification: "preferred",
    });
    return optionsAnswer(options, "registration", user.id);
  });

  app.post("/passkeys/registration/verify", async (request) => {
    const { user, session } = await authenticateForMfa(db, ctx.tokens, request);
    await assertMayManagePasskeys(db, user, session);
    const { challengeId, credential } = readAnswer(request);
    const challenge = await takeChallenge(challengeId, "registration", user.id);
    const made = await rp.verifyRegistration(credential, challenge).catch(refusal);
    const passkey = await db.transaction(async (tx) => {
      const added = await addPasskey(tx, user.id, made, {
        friendlyName: DEFAULT_NAME,
        max: config.passkeys.maxPerUser,
      });
      if (!added) throw tooMany();
      await auditUser(tx, request, user, "passkey_created", { passkey_id: added.id });
      return added;
    });
    return {
      id: passkey.id,
      friendly_name: passkey.friendly_name,
      created_at: new Date(passkey.created_at).toISOString(),
    };
  });

  app.post(
    "/passkeys/authentication/options",
    { onRequest: ctx.limits.hook("passkey") },
    async () => optionsAnswer(await rp.authenticationOptions([]), "authentication", null),
  );

  app.post("/passkeys/authentication/verify", async (request) => {
    const { challengeId, credential } = readAnswer(request);
    const challenge = await takeChallenge(challengeId, "authentication", null);
    // The passkey the answer names, and the account it names, must be one.
    const credentialId = answeredCredentialId(credential);
    const passkey = credentialId && (await findPasskeyByCredentialId(db, credentialId));
    if (!passkey || answeredUserHandle(credential) !== passkey.user_id) throw verificationFailed();
    const use = await rp
      .verifyAuthentication(credential, challenge, storedCredential(passkey))
      .catch(refusal);
    const user = await findUserById(db, passkey.user_id);
    if (!user || user.deleted_at) throw verificationFailed();
    if (user.email && !user.email_confirmed_at)
      throw new AuthError(403, ErrorCode.email_not_confirmed, "Email not confirmed");
    if (user.phone && !user.phone_confirmed_at)
      throw new AuthError(403, ErrorCode.phone_not_confirmed, "Phone not confirmed");
    if (isBanned(user)) throw new AuthError(403, ErrorCode.user_banned, "User is banned");
    return db.transaction(async (tx) => {
      // Another sign-in moved the counter since it was read: this assertion is not the newest.
      if (!(await recordPasskeyUse(tx, passkey, use))) throw verificationFailed();
      return signIn(tx, ctx, user, "passkey", request);
    });
  });

  app.get("/passkeys", async (request) => {
    const { user } = await authenticate(db, ctx.tokens, request);
    return (await listPasskeys(db, user.id)).map(serializePasskey);
  });

  /** The signed-in user's passkey named in the path, else GoTrue's 404. */
  async function ownPasskey(userId: string, id: string): Promise<PasskeyRow> {
    const passkey = isUuid(id) ? await findPasskey(db, userId, id) : undefined;
    if (!passkey) throw passkeyNotFound();
    return passkey;
  }

  app.patch<{ Params: { id: string } }>("/passkeys/:id", async (request) => {
    const { user } = await authenticate(db, ctx.tokens, request);
    if (!isUuid(request.params.id)) throw passkeyNotFound();
    const name = readBody(request).friendly_name;
    if (name === undefined || name === null || name === "")
      throw invalid("friendly_name is required");
    if (typeof name !== "string") throw invalid("friendly_name must be a string");
    if (name.length > MAX_NAME_LENGTH)
      throw invalid(`friendly_name must be ${MAX_NAME_LENGTH} characters or less`);
    const passkey = await ownPasskey(user.id, request.params.id);
    const renamed = await db.transaction(async (tx) => {
      const row = await renamePasskey(tx, passkey, name);
      if (!row) throw passkeyNotFound();
      await auditUser(tx, request, user, "passkey_updated", { passkey_id: row.id });
      return row;
    });
    return serializePasskey(renamed);
  });

  app.delete<{ Params: { id: string } }>("/passkeys/:id", async (request, reply) => {
    const { user, session } = await authenticate(db, ctx.tokens, request);
    await assertMayManagePasskeys(db, user, session);
    const passkey = await ownPasskey(user.id, request.params.id);
    await db.transaction(async (tx) => {
      if (await deletePasskey(tx, passkey))
        await auditUser(tx, request, user, "passkey_deleted", { passkey_id: passkey.id });
    });
    return reply.code(204).send();
  });
}

/** A refused ceremony is GoTrue's 400; anything else is the server's own failure. */
function refusal(error: unknown): never {
  if (error instanceof CeremonyRefused) throw verificationFailed();
  throw error;
}
