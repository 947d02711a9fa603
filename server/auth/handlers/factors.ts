// MFA with authenticator apps: POST /factors (enrol a TOTP factor: its secret, otpauth:// URI and
// QR code), POST /factors/{id}/challenge, POST /factors/{id}/verify (a code raises the session to
// aal2 and answers with new tokens), DELETE /factors/{id}. Every route needs a signed-in user
// first; a verified factor is added or removed only from an aal2 session.
import type { FastifyInstance } from "fastify";
import QRCode from "qrcode";
import { isUuid } from "../../platform/uuid.ts";
import { authenticate } from "../authenticate.ts";
import type { AuthContext } from "../context.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { matchTotp, newTotpSecret, otpauthUri } from "../mfa/totp.ts";
import {
  completeChallenge,
  createChallenge,
  createTotpFactor,
  deleteChallenge,
  deleteFactor,
  findChallenge,
  findFactor,
  listFactors,
  SecretBox,
  type FactorRow,
} from "../models/factors.ts";
import { sessionResponse } from "../models/sessions.ts";
import { presentString, readBody } from "../request.ts";

const notFound = () => new AuthError(404, ErrorCode.mfa_factor_not_found, "Factor not found");

export default async function factors(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config } = app;
  const box = new SecretBox(app.keys.derive("mfa-totp-secrets"));
  const issuerDefault = new URL(config.siteUrl).hostname;

  /** The signed-in user's factor named in the path. */
  async function ownFactor(request: Parameters<typeof authenticate>[2], id: string) {
    const signedIn = await authenticate(db, ctx.tokens, request);
    if (!isUuid(id)) throw notFound();
    const factor = await findFactor(db, signedIn.user.id, id);
    if (!factor) throw notFound();
    return { ...signedIn, factor };
  }

  app.post("/factors", async (request) => {
    const { user, session } = await authenticate(db, ctx.tokens, request);
    const body = readBody(request);
    const type = body.factor_type;
    if (type !== "totp" && type !== "phone" && type !== "webauthn")
      throw new AuthError(
        400,
        ErrorCode.validation_failed,
        "factor_type needs to be totp, phone, or webauthn",
      );
    if (type === "phone")
      throw new AuthError(
        422,
        ErrorCode.mfa_phone_enroll_not_enabled,
        "MFA enroll is disabled for Phone",
      );
    if (type === "webauthn")
      throw new AuthError(422, ErrorCode.validation_failed, "MFA enroll is disabled for WebAuthn");
    if (!config.mfa.totpEnroll)
      throw new AuthError(
        422,
        ErrorCode.mfa_totp_enroll_not_enabled,
        "MFA enroll is disabled for TOTP",
      );
    const friendlyName = presentString(body.friendly_name) ?? "";
    if (friendlyName.length > 120)
      throw new AuthError(400, ErrorCode.validation_failed, "friendly_name is too long");
    const issuer = presentString(body.issuer) ?? issuerDefault;
    const existing = await listFactors(db, user.id);
    if (existing.length >= config.mfa.maxFactors)
      throw new AuthError(
        422,
        ErrorCode.too_many_enrolled_mfa_factors,
        "Maximum number of verified factors reached, unenroll to continue",
      );
    if (existing.some((f) => f.status === "verified") && session.aal !== "aal2")
      throw new AuthError(422, ErrorCode.insufficient_aal, "AAL2 required to enroll a new factor");
    const secret = newTotpSecret();
    const uri = otpauthUri({ issuer, account: user.email || user.phone || user.id, secret });
    const factor = await createTotpFactor(db, {
      userId: user.id,
      friendlyName,
      sealedSecret: box.seal(secret),
    });
    // supabase-js puts the SVG into a data: URL as it is, where a "#" would end it: colours by name.
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
      const { factor } = await ownFactor(request, request.params.id);
      const challenge = await createChallenge(db, factor.id, request.ip);
      const expiresAt =
        Math.floor(new Date(challenge.created_at).getTime() / 1000) + config.mfa.challengeSeconds;
      return { id: challenge.id, type: factor.factor_type, expires_at: expiresAt };
    },
  );

  app.post<{ Params: { id: string } }>(
    "/factors/:id/verify",
    { onRequest: ctx.limits.hook("factor_verify") },
    async (request) => {
      const { user, session, factor } = await ownFactor(request, request.params.id);
      if (!config.mfa.totpVerify)
        throw new AuthError(
          422,
          ErrorCode.mfa_totp_verify_not_enabled,
          "MFA verification is disabled for TOTP",
        );
      const body = readBody(request);
      const challengeId = presentString(body.challenge_id);
      const code = typeof body.code === "string" ? body.code.trim() : "";
      if (!challengeId || !isUuid(challengeId))
        throw new AuthError(400, ErrorCode.validation_failed, "challenge_id must be a UUID");
      const raised = await db.transaction(async (tx) => {
        const challenge = await findChallenge(tx, factor.id, challengeId);
        if (!challenge)
          throw new AuthError(
            404,
            ErrorCode.mfa_factor_not_found,
            "MFA factor with the provided challenge ID not found",
          );
        if (challenge.verified_at !== null || challenge.ip_address !== request.ip)
          throw new AuthError(
            422,
            ErrorCode.mfa_ip_address_mismatch,
            "Challenge and verify IP addresses mismatch. Try enrollment again.",
          );
        const age = Date.now() - new Date(challenge.created_at).getTime();
        if (age > config.mfa.challengeSeconds * 1000) {
          await deleteChallenge(tx, challenge.id);
          return { expired: challenge.id };
        }
        const locked = (await findFactor(tx, user.id, factor.id, true)) as FactorRow;
        const step = matchTotp(
          box.open(locked.secret!),
          code,
          Date.now(),
          locked.last_used_step === null ? -1 : Number(locked.last_used_step),
        );
        if (step === undefined)
          throw new AuthError(422, ErrorCode.mfa_verification_failed, "Invalid TOTP code entered");
        const raisedSession = await completeChallenge(tx, { challenge, factor, step, session });
        // New tokens for the raised session; the ones it had no longer refresh.
        const refreshToken = await ctx.refreshTokens.replace(tx, session.id, user.id);
        return { session: raisedSession, refreshToken };
      });
      if ("expired" in raised)
        throw new AuthError(
          422,
          ErrorCode.mfa_challenge_expired,
          `MFA challenge ${raised.expired} has expired, verify against another challenge or create a new challenge.`,
        );
      return sessionResponse(db, ctx.tokens, user, raised.session, raised.refreshToken);
    },
  );

  app.delete<{ Params: { id: string } }>("/factors/:id", async (request) => {
    const { session, factor } = await ownFactor(request, request.params.id);
    if (factor.status === "verified" && session.aal !== "aal2")
      throw new AuthError(
        422,
        ErrorCode.insufficient_aal,
        "AAL2 required to unenroll verified factor",
      );
    await db.transaction((tx) => deleteFactor(tx, factor));
    return { id: factor.id };
  });
}
