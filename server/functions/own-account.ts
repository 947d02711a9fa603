// What the account page's own functions share: the caller, from their access token (the anon key,
// a signed-out session's token or none are refused with 401), and, for an account with a verified
// second factor, a session that passed it (403 otherwise), as GoTrue asks before what would let an
// aal1 session change how one signs in.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { authenticate } from "../auth/authenticate.ts";
import { AuthError } from "../auth/errors.ts";
import { hasVerifiedFactor } from "../auth/models/factors.ts";
import { FunctionError } from "./errors.ts";

export async function ownAccount(app: FastifyInstance, request: FastifyRequest, doing: string) {
  const caller = await authenticate(app.db, app.tokens, request).catch((err: unknown) => {
    if (err instanceof AuthError)
      throw new FunctionError(401, "invalid_jwt", `Sign in to ${doing}.`);
    throw err;
  });
  if (caller.session.aal !== "aal2" && (await hasVerifiedFactor(app.db, caller.user.id)))
    throw new FunctionError(
      403,
      "insufficient_aal",
      `Your account uses two-step verification: sign in with your second factor to ${doing}.`,
    );
  return caller;
}
