// Recovery codes, a second factor for a lost phone (GoTrue has none; decision 0038): GET
// /recovery_codes (how many are left), POST /recovery_codes (ten new ones, shown once, from an aal2
// session: the old ones stop working), POST /recovery_codes/verify (one code raises the session to
// aal2 with "recovery" in its amr and answers with new tokens, as a factor's verify does). Every
// route needs a signed-in user, not an anonymous one. supabase-js has no call for them: the site
// calls them with fetch and the user's access token.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { authenticateForMfa } from "../authenticate.ts";
import type { AuthContext } from "../context.ts";
import { notifyOwner } from "../emails/security-notices.ts";
import { AuthError, ErrorCode, tooSoon } from "../errors.ts";
import { hasVerifiedFactor } from "../models/factors.ts";
import {
  recoveryCodesLeft,
  replaceRecoveryCodes,
  useRecoveryCode,
  type RecoveryUse,
} from "../models/recovery-codes.ts";
import { raiseToAal2, sessionResponse, type SessionRow } from "../models/sessions.ts";
import { presentString, readBody } from "../request.ts";

const iso = (d: Date | undefined) => (d ? new Date(d).toISOString() : null);

export default async function recoveryCodes(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config, mailer } = app;
  const key = app.keys.derive("mfa-recovery-codes");

  const signedIn = (request: FastifyRequest) => authenticateForMfa(db, ctx.tokens, request);

  app.get("/recovery_codes", async (request) => {
    const { user } = await signedIn(request);
    const left = await recoveryCodesLeft(db, user.id);
    return { remaining: left?.remaining ?? 0, created_at: iso(left?.created_at) };
  });

  app.post("/recovery_codes", async (request) => {
    const { user, session } = await signedIn(request);
    // Made only by a session that passed a second factor, as a factor is added once one exists.
    if (session.aal !== "aal2")
      throw new AuthError(
        403,
        ErrorCode.insufficient_aal,
        "AAL2 required to generate recovery codes",
      );
    if (!(await hasVerifiedFactor(db, user.id)))
      throw new AuthError(
        422,
        ErrorCode.mfa_factor_not_found,
        "Recovery codes need a verified factor",
      );
    const made = await db.transaction(async (tx) => {
      const codes = await replaceRecoveryCodes(tx, key, user.id);
      await notifyOwner(tx, mailer, user, { kind: "recovery_codes_made" }, config.siteUrl);
      return codes;
    });
    mailer.flush();
    return { codes: made.codes, created_at: iso(made.created_at) };
  });

  app.post(
    "/recovery_codes/verify",
    { onRequest: ctx.limits.hook("factor_verify") },
    async (request) => {
      const { user, session } = await signedIn(request);
      const code = presentString(readBody(request).code)?.trim();
      if (!code)
        throw new AuthError(400, ErrorCode.validation_failed, "Code needs to be non-empty");
      // The wrong answers counted commit with the transaction; the refusal comes after it.
      const outcome = await db.transaction(
        async (
          tx,
        ): Promise<
          Exclude<RecoveryUse, { used: true }> | { session: SessionRow; refreshToken: string }
        > => {
          const use = await useRecoveryCode(tx, key, user.id, code);
          if (!("used" in use)) return use;
          const left = await recoveryCodesLeft(tx, user.id);
          await notifyOwner(
            tx,
            mailer,
            user,
            { kind: "recovery_code_used", remaining: left?.remaining ?? 0 },
            config.siteUrl,
          );
          const raised = await raiseToAal2(tx, session, null);
          // New tokens for the raised session; the ones it had no longer refresh.
          const refreshToken = await ctx.refreshTokens.replace(tx, session.id, user.id);
          return { session: raised, refreshToken };
        },
      );
      if ("lockedFor" in outcome)
        throw tooSoon(ErrorCode.over_request_rate_limit, outcome.lockedFor);
      if ("wrong" in outcome)
        throw new AuthError(
          422,
          ErrorCode.mfa_verification_failed,
          "Invalid recovery code entered",
        );
      mailer.flush();
      return sessionResponse(db, ctx.tokens, user, outcome.session, outcome.refreshToken);
    },
  );
}
