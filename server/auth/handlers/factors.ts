// MFA with authenticator apps, phones and security keys: POST /factors (enrol a TOTP factor: its
// secret, otpauth:// URI and QR code; a phone number; or a WebAuthn factor), POST
// /factors/{id}/challenge (for a phone, a code by text message; for WebAuthn, the options of the
// browser's ceremony: a new credential for an unverified factor, an assertion of its credential
// for a verified one), POST /factors/{id}/verify (a code or a WebAuthn answer raises the session
// to aal2 and answers with new tokens), DELETE /factors/{id}. Every route needs a signed-in user first, not an
// anonymous one; a verified factor is added or removed only from an aal2 session. Checks come in
// GoTrue's order with its codes (mfa.go).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isUuid } from "../../platform/uuid.ts";
import { authenticateForMfa } from "../authenticate.ts";
import { auditUser } from "../audit.ts";
import type { AuthContext } from "../context.ts";
import { spendEmailBudget } from "../emails/email-limits.ts";
import { notifyOwner } from "../emails/security-notices.ts";
import { AuthError, ErrorCode, tooSoon } from "../errors.ts";
import { matchTotp, newTotpSecret, otpauthUri } from "../mfa/totp.ts";
import {
  CeremonyRefused,
  relyingParty,
  verificationFailed,
  type NewCredential,
} from "../webauthn.ts";
import {
  completeChallenge,
  countWrongChallengeAnswer,
  createChallenge,
  deleteExpiredFactors,
  createPhoneChallenge,
  createPhoneFactor,
  createTotpFactor,
  deleteChallenge,
  deleteFactor,
  createWebAuthnFactor,
  factorCredential,
  findChallenge,
  findFactor,
  hasVerifiedFactor,
  listFactors,
  type ChallengeRow,
  type FactorRow,
  type WebAuthnUse,
} from "../models/factors.ts";
import { lowerToAal1, raiseToAal2, sessionResponse, type SessionRow } from "../models/sessions.ts";
import { countWrongAnswer, lockedForSeconds, WRONG_TRIES } from "../models/wrong-codes.ts";
import { randomCode } from "../models/one-time-tokens.ts";
import { claimStamp, giveStampBack } from "../models/sent-stamps.ts";
import type { UserRow } from "../models/users.ts";
import { presentString, readBody, readPhone, unreadable } from "../request.ts";
import { readChannel } from "../sms/phone-codes.ts";
import { sameSecret } from "../../security/constant-time.ts";
import { SecretBox } from "../../security/secret-box.ts";
import { countOutcome, mfaChallenges, mfaVerifications } from "../../metrics/metrics.ts";

const notFound = () => new AuthError(404, ErrorCode.mfa_factor_not_found, "Factor not found");
/**
 * A factor answered wrong too often in a row: GoTrue has no such lock, so its nearest answer, the
 * request rate limit's code with its frequency limit's words (the seconds left).
 */
const factorLocked = (seconds: number) => tooSoon(ErrorCode.over_request_rate_limit, seconds);

type VerifyOutcome =
  | { expired: string }
  | { lockedFor: number }
  | { wrong: string }
  | { refused: true }
  | { session: SessionRow; refreshToken: string };

/** An unverified factor never challenged goes after this long (GoTrue's factor expiry). */
const UNVERIFIED_FACTOR_SECONDS = 300;
/** At most this many verified factors, whatever GOTRUE_MFA_MAX_ENROLLED_FACTORS allows. */
const MAX_VERIFIED_FACTORS = 10;
/** What GoTrue reads a missing challenge_id as: the zero UUID, which names no challenge. */
const NO_CHALLENGE = "00000000-0000-0000-0000-000000000000";

/**
 * A WebAuthn factor's answer, as GoTrue reads `webauthn`: its ceremony ("create" or "request")
 * and the browser's credential response (rpId and rpOrigins, which auth-js also sends, are not
 * read: the relying party is the configured one).
 */
function readWebAuthnAnswer(body: Record<string, unknown>) {
  const webauthn = body.webauthn;
  if (webauthn === undefined || webauthn === null || typeof webauthn !== "object")
    throw new AuthError(400, ErrorCode.validation_failed, "WebAuthn config required");
  const { type, credential_response: response } = webauthn as Record<string, unknown>;
  if (type !== "create" && type !== "request")
    throw new AuthError(
      400,
      ErrorCode.validation_failed,
      "WebAuthn type must be create or request",
    );
  if (response === undefined || response === null)
    throw new AuthError(400, ErrorCode.validation_failed, "credential_response required");
  return { type: type as "create" | "request", response };
}

export default async function factors(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config, mailer } = app;
  const box = new SecretBox(app.keys.derive("mfa-totp-secrets"));
  const issuerDefault = new URL(config.siteUrl).hostname;
  const rp = relyingParty(config.webauthn);

  const signedIn = (request: FastifyRequest) => authenticateForMfa(db, ctx.tokens, request);

  /** The signed-in user's factor named in the path. */
  async function ownFactor(request: FastifyRequest, id: string) {
    const found = await signedIn(request);
    if (!isUuid(id))
      throw new AuthError(404, ErrorCode.validation_failed, "factor_id must be an UUID");
    const factor = await findFactor(db, found.user.id, id);
    if (!factor) throw notFound();
    return { ...found, factor };
  }

  /**
   * An unverified factor is challenged and verified from an aal2 session once the user has a
   * verified one, as it is enrolled: the password alone never adds a second factor, even one
   * enrolled before the first was verified.
   */
  async function assertMayVerify(factor: FactorRow, session: { aal: string }) {
    if (
      factor.status === "unverified" &&
      session.aal !== "aal2" &&
      (await hasVerifiedFactor(db, factor.user_id))
    )
      throw new AuthError(403, ErrorCode.insufficient_aal, "AAL2 required to verify a new factor");
  }

  /**
   * GoTrue's checks of a new factor, in its order, over the user's factors once every user's
   * abandoned ones have gone (unverified, never challenged, older than UNVERIFIED_FACTOR_SECONDS):
   * the name is not another factor's (an empty one included), the counts, and aal2 once a factor
   * is verified.
   */
  async function assertMayEnrol(
    user: UserRow,
    session: { aal: string },
    friendlyName: string,
    replaced: (f: FactorRow) => boolean,
  ) {
    await deleteExpiredFactors(db, UNVERIFIED_FACTOR_SECONDS);
    const factors = (await listFactors(db, user.id)).filter((f) => !replaced(f));
    if (factors.some((f) => f.friendly_name === friendlyName))
      throw new AuthError(
        422,
        ErrorCode.mfa_factor_name_conflict,
        `A factor with the friendly name "${friendlyName}" for this user already exists`,
      );
    const verified = factors.filter((f) => f.status === "verified").length;
    if (factors.length >= config.mfa.maxFactors || verified >= MAX_VERIFIED_FACTORS)
      throw new AuthError(
        422,
        ErrorCode.too_many_enrolled_mfa_factors,
        "Maximum number of verified factors reached, unenroll to continue",
      );
    if (verified > 0 && session.aal !== "aal2")
      throw new AuthError(403, ErrorCode.insufficient_aal, "AAL2 required to enroll a new factor");
  }

  app.post("/factors", async (request) => {
    const { user, session } = await signedIn(request);
    const body = readBody(request);
    const type = presentString(body.factor_type);
    if (type !== "totp" && type !== "phone" && type !== "webauthn")
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "factor_type needs to be totp, phone, or webauthn",
      );
    if (type === "phone" && !config.mfa.phoneEnroll)
      throw new AuthError(
        422,
        ErrorCode.mfa_phone_enroll_not_enabled,
        "MFA enroll is disabled for Phone",
      );
    if (type === "webauthn" && !config.mfa.webauthnEnroll)
      throw new AuthError(
        422,
        ErrorCode.mfa_webauthn_enroll_not_enabled,
        "MFA enroll is disabled for WebAuthn",
      );
    if (type === "totp" && !config.mfa.totpEnroll)
      throw new AuthError(
        422,
        ErrorCode.mfa_totp_enroll_not_enabled,
        "MFA enroll is disabled for TOTP",
      );
    const friendlyName = presentString(body.friendly_name) ?? "";
    if (friendlyName.length > 120)
      throw new AuthError(400, ErrorCode.validation_failed, "friendly_name is too long");
    let phone: string | undefined;
    if (type === "phone") {
      if (presentString(body.phone) === undefined)
        throw new AuthError(
          400,
          ErrorCode.validation_failed,
          "Phone number required to enroll Phone factor",
        );
      phone = readPhone(body.phone);
      if (
        (await listFactors(db, user.id)).some((f) => f.phone === phone && f.status === "verified")
      )
        throw new AuthError(
          422,
          ErrorCode.mfa_verified_factor_exists,
          "A verified phone factor already exists, unenroll the existing factor to continue",
        );
    }
    // An unverified factor of the same number is replaced by this one (createPhoneFactor).
    await assertMayEnrol(
      user,
      session,
      friendlyName,
      (f) => phone !== undefined && f.phone === phone,
    );
    if (type === "webauthn") {
      const factor = await db.transaction(async (tx) => {
        const made = await createWebAuthnFactor(tx, { userId: user.id, friendlyName });
        await auditUser(tx, request, user, "factor_in_progress", {
          factor_id: made.id,
          factor_type: "webauthn",
        });
        return made;
      });
      return { id: factor.id, type: "webauthn", friendly_name: factor.friendly_name };
    }
    if (phone !== undefined) {
      const factor = await db.transaction(async (tx) => {
        const made = await createPhoneFactor(tx, { userId: user.id, friendlyName, phone });
        await auditUser(tx, request, user, "factor_in_progress", {
          factor_id: made.id,
          factor_type: "phone",
        });
        return made;
      });
      return {
        id: factor.id,
        type: "phone",
        friendly_name: factor.friendly_name,
        phone: body.phone,
      };
    }
    const issuer = presentString(body.issuer) ?? issuerDefault;
    const secret = newTotpSecret();
    const uri = otpauthUri({ issuer, account: user.email || user.phone || user.id, secret });
    const factor = await db.transaction(async (tx) => {
      const made = await createTotpFactor(tx, {
        userId: user.id,
        friendlyName,
        sealedSecret: box.seal(secret),
      });
      await auditUser(tx, request, user, "factor_in_progress", {
        factor_id: made.id,
        factor_type: "totp",
      });
      return made;
    });
    // supabase-js puts the SVG into a data: URL as it is, where a "#" would end it: colours by name.
    // Loaded by the first enrolment, not at every start.
    const { default: QRCode } = await import("qrcode");
    const qr = (await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 }))
      .replaceAll('"#ffffff"', '"white"')
      .replaceAll('"#000000"', '"black"');
    return {
      id: factor.id,
      type: "totp",
      friendly_name: factor.friendly_name,
      totp: { qr_code: qr, secret, uri },
    };
  });

  app.post<{ Params: { id: string } }>(
    "/factors/:id/challenge",
    { onRequest: ctx.limits.hook("factor_challenge") },
    async (request) => {
      const { user, session, factor } = await ownFactor(request, request.params.id);
      assertVerifyEnabled(factor);
      await assertMayVerify(factor, session);
      const lockedFor = lockedForSeconds(factor);
      if (lockedFor > 0) throw factorLocked(lockedFor);
      if (factor.factor_type === "webauthn") {
        const { challenge, webauthn } = await webAuthnChallenge(request, user, factor);
        mfaChallenges.inc({ factor_type: factor.factor_type });
        return { ...challengeJson(challenge, factor), webauthn };
      }
      const challenge =
        factor.factor_type === "phone"
          ? await phoneChallenge(request, user, factor)
          : await createChallenge(db, factor.id, request.ip);
      mfaChallenges.inc({ factor_type: factor.factor_type });
      return challengeJson(challenge, factor);
    },
  );

  app.post<{ Params: { id: string } }>(
    "/factors/:id/verify",
    { onRequest: ctx.limits.hook("factor_verify") },
    async (request) => {
      const { user, session, factor } = await ownFactor(request, request.params.id);
      const body = readBody(request);
      // GoTrue reads the body into typed fields first: a challenge_id that is not a UUID, or a
      // code that is not a string, is unreadable JSON; a missing challenge_id is the zero UUID.
      const challengeId = body.challenge_id ?? NO_CHALLENGE;
      if (!isUuid(challengeId)) throw unreadable("challenge_id must be a UUID");
      const challengeUuid: string = challengeId;
      const given = presentString(body.code);
      if (given === undefined && factor.factor_type !== "webauthn")
        throw new AuthError(400, ErrorCode.validation_failed, "Code needs to be non-empty");
      const code = (given ?? "").trim();
      assertVerifyEnabled(factor);
      const answer = factor.factor_type === "webauthn" ? readWebAuthnAnswer(body) : undefined;
      await assertMayVerify(factor, session);
      return countOutcome(mfaVerifications, { factor_type: factor.factor_type }, verify());

      async function verify() {
        const outcome = await db.transaction(async (tx): Promise<VerifyOutcome> => {
          // The factor's row first: its lock, and the wrong answers counted one at a time.
          const locked = (await findFactor(tx, user.id, factor.id, true)) as FactorRow;
          const lockedFor = lockedForSeconds(locked);
          if (lockedFor > 0) return { lockedFor };
          const challenge = await findChallenge(tx, factor.id, challengeUuid);
          if (!challenge)
            throw new AuthError(
              422,
              ErrorCode.mfa_factor_not_found,
              "MFA factor with the provided challenge ID not found",
            );
          if (challenge.verified_at !== null || challenge.ip_address !== request.ip)
            throw new AuthError(
              422,
              ErrorCode.mfa_ip_address_mismatch,
              "Challenge and verify IP addresses mismatch. Try enrollment again.",
            );
          // A challenge answered wrong WRONG_TRIES times is dead, as an expired one is.
          const age = Date.now() - new Date(challenge.created_at).getTime();
          if (
            age > config.mfa.challengeSeconds * 1000 ||
            challenge.failed_attempts >= WRONG_TRIES
          ) {
            await deleteChallenge(tx, challenge.id);
            return { expired: challenge.id };
          }
          const attempt = (verified: boolean) =>
            auditUser(tx, request, user, "verification_attempted", {
              factor_id: factor.id,
              challenge_id: challenge.id,
              factor_type: factor.factor_type,
              verified,
            });
          let webauthn: WebAuthnUse | undefined;
          if (answer) {
            // A WebAuthn challenge is answered once, right or wrong: its answer could be replayed.
            webauthn = await checkWebAuthnAnswer(locked, challenge, answer);
            if (!webauthn) {
              await deleteChallenge(tx, challenge.id);
              await attempt(false);
              return { refused: true };
            }
          }
          const step =
            locked.factor_type === "totp"
              ? matchTotp(
                  box.open(locked.secret!),
                  code,
                  Date.now(),
                  locked.last_used_step === null ? -1 : Number(locked.last_used_step),
                )
              : null;
          const wrong =
            locked.factor_type === "phone"
              ? !sameSecret(box.open(challenge.otp_code!), code) && "Invalid MFA Phone code entered"
              : step === undefined && "Invalid TOTP code entered";
          if (wrong) {
            // Counted, and kept: the transaction commits the counts, the answer is the refusal.
            await countWrongChallengeAnswer(tx, challenge.id);
            await countWrongAnswer(tx, "factor", factor.id);
            await attempt(false);
            return { wrong };
          }
          await completeChallenge(tx, { challenge, factor, step: step ?? null, webauthn });
          await attempt(true);
          // Its first verification adds the factor to the account: the owner is told (once: the
          // factor's row is locked, a second verify at the same moment finds it verified).
          if (locked.status === "unverified")
            await notifyOwner(
              tx,
              mailer,
              user,
              { kind: "mfa_factor_enrolled", factorType: factor.factor_type },
              config.siteUrl,
            );
          const raisedSession = await raiseToAal2(tx, session, factor);
          // New tokens for the raised session; the ones it had no longer refresh.
          const refreshToken = await ctx.refreshTokens.replace(tx, session.id, user.id);
          return { session: raisedSession, refreshToken };
        });
        if ("expired" in outcome)
          throw new AuthError(
            422,
            ErrorCode.mfa_challenge_expired,
            `MFA challenge ${outcome.expired} has expired, verify against another challenge or create a new challenge.`,
          );
        if ("lockedFor" in outcome) throw factorLocked(outcome.lockedFor);
        if ("wrong" in outcome)
          throw new AuthError(422, ErrorCode.mfa_verification_failed, outcome.wrong);
        if ("refused" in outcome) throw verificationFailed();
        mailer.flush();
        return sessionResponse(db, ctx.tokens, user, outcome.session, outcome.refreshToken);
      }
    },
  );

  /** GoTrue's ChallengeFactorResponse: the challenge's id, the factor's type, when it expires. */
  function challengeJson(challenge: ChallengeRow, factor: FactorRow) {
    const expiresAt =
      Math.floor(new Date(challenge.created_at).getTime() / 1000) + config.mfa.challengeSeconds;
    return { id: challenge.id, type: factor.factor_type, expires_at: expiresAt };
  }

  /**
   * A WebAuthn factor's challenge: for an unverified factor the options of a new credential (none
   * of the user's security keys again), for a verified one of an assertion by its credential, as
   * GoTrue's `webauthn.credential_options.publicKey`. The relying party is the configured one:
   * the rpId and rpOrigins auth-js sends are not read (decision 0059).
   */
  async function webAuthnChallenge(request: FastifyRequest, user: UserRow, factor: FactorRow) {
    if (factor.status === "unverified") {
      const keys = (await listFactors(db, user.id))
        .map(factorCredential)
        .filter((c) => c !== undefined);
      const publicKey = await rp.registrationOptions(user, keys, {
        residentKey: "discouraged",
        requireResidentKey: false,
        userVerification: "preferred",
      });
      const challenge = await createChallenge(db, factor.id, request.ip, {
        challenge: publicKey.challenge,
        type: "create",
      });
      return { challenge, webauthn: { type: "create", credential_options: { publicKey } } };
    }
    const publicKey = await rp.authenticationOptions([factorCredential(factor)!]);
    const challenge = await createChallenge(db, factor.id, request.ip, {
      challenge: publicKey.challenge,
      type: "request",
    });
    return { challenge, webauthn: { type: "request", credential_options: { publicKey } } };
  }

  /**
   * The answer's credential, checked against the challenge it answers: a new credential for an
   * unverified factor, an assertion by the factor's own credential for a verified one (its
   * counter moving on). Undefined when refused.
   */
  async function checkWebAuthnAnswer(
    factor: FactorRow,
    challenge: ChallengeRow,
    answer: { type: "create" | "request"; response: unknown },
  ): Promise<WebAuthnUse | undefined> {
    const session = challenge.web_authn_session_data;
    if (!session || session.type !== answer.type) return undefined;
    try {
      if (answer.type === "create") {
        const credential: NewCredential = await rp.verifyRegistration(
          answer.response,
          session.challenge,
        );
        return { credential };
      }
      const stored = factorCredential(factor);
      if (!stored || (answer.response as { id?: unknown })?.id !== stored.id) return undefined;
      return await rp.verifyAuthentication(answer.response, session.challenge, stored);
    } catch (error) {
      if (error instanceof CeremonyRefused) return undefined;
      throw error;
    }
  }

  function assertVerifyEnabled(factor: FactorRow) {
    if (factor.factor_type === "phone" && !config.mfa.phoneVerify)
      throw new AuthError(
        422,
        ErrorCode.mfa_phone_verify_not_enabled,
        "MFA verification is disabled for Phone",
      );
    if (factor.factor_type === "totp" && !config.mfa.totpVerify)
      throw new AuthError(
        422,
        ErrorCode.mfa_totp_verify_not_enabled,
        "MFA verification is disabled for TOTP",
      );
    if (factor.factor_type === "webauthn" && !config.mfa.webauthnVerify)
      throw new AuthError(
        422,
        ErrorCode.mfa_webauthn_verify_not_enabled,
        "MFA verification is disabled for WebAuthn",
      );
  }

  /**
   * A phone factor's challenge: a code by text message, at most one per
   * GOTRUE_MFA_PHONE_MAX_FREQUENCY from any instance, within the text budgets. The interval is claimed on the factor's row
   * first: of challenges at the same moment one is texted, and the others get GoTrue's 429. The
   * challenge is stored before its message goes; a message that could not go takes the challenge
   * away and gives the interval back (GoTrue stores neither until the message went), and so does
   * a spent budget (its 429, as GoTrue's SMS budget answers). No
   * transaction waits on the Send SMS hook.
   */
  async function phoneChallenge(request: FastifyRequest, user: UserRow, factor: FactorRow) {
    const channel = readChannel(readBody(request).channel, config.sms.hook !== undefined);
    const claim = await claimStamp(
      db,
      "mfa_challenge",
      factor.id,
      config.mfa.phoneMaxFrequencySeconds,
    );
    if (!claim) throw notFound();
    if (!claim.stamp) throw tooSoon(ErrorCode.over_sms_send_rate_limit, claim.waitSeconds);
    let challenge: ChallengeRow | undefined;
    try {
      // Every text spends the budgets: the client's, the site's, the user's and the number's.
      await spendEmailBudget(
        request,
        "auth-mfa",
        { phone: factor.phone! },
        { userId: user.id, everyTime: true },
      );
      const otp = randomCode(config.mfa.phoneOtpLength);
      challenge = await createPhoneChallenge(db, factor.id, request.ip, box.seal(otp));
      await ctx.sms.send(db, request, {
        user,
        phone: factor.phone!,
        otp,
        smsType: "mfa",
        channel,
        validForSeconds: config.mfa.challengeSeconds,
      });
      return challenge;
    } catch (err) {
      if (challenge) await deleteChallenge(db, challenge.id);
      await giveStampBack(db, "mfa_challenge", factor.id, claim.stamp);
      throw err;
    }
  }

  app.delete<{ Params: { id: string } }>("/factors/:id", async (request) => {
    const { user, session, factor } = await ownFactor(request, request.params.id);
    if (factor.status === "verified" && session.aal !== "aal2")
      throw new AuthError(
        422,
        ErrorCode.insufficient_aal,
        "AAL2 required to unenroll verified factor",
      );
    await db.transaction(async (tx) => {
      await lowerToAal1(tx, factor);
      const removed = await deleteFactor(tx, factor);
      if (removed)
        await auditUser(tx, request, user, "factor_unenrolled", {
          factor_id: factor.id,
          factor_type: factor.factor_type,
          factor_status: factor.status,
          session_id: session.id,
        });
      // A factor in use leaves the account: the owner is told.
      if (removed && factor.status === "verified")
        await notifyOwner(
          tx,
          mailer,
          user,
          { kind: "mfa_factor_unenrolled", factorType: factor.factor_type },
          config.siteUrl,
        );
    });
    mailer.flush();
    return { id: factor.id };
  });
}
