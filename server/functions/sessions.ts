// GET /functions/v1/sessions: the caller's own sessions (GoTrue has no endpoint that lists them),
// newest activity first, the one the request's access token belongs to flagged `current`.
// DELETE /functions/v1/sessions/{id}: ends one of them (GoTrue's /logout ends this one, all, or all
// others, never one chosen), with its refresh tokens; `204`, or `404` for an id that is no session
// of the caller's, whether it is someone else's or nobody's. Only a user's own access token opens
// either: the anon key, a signed-out session's token or no token are refused with 401, so one
// person never sees or ends another's sessions.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { FUNCTIONS } from "../../common/functions.ts";
import type { AccountSession } from "../../common/accounts.ts";
import { authenticate } from "../auth/authenticate.ts";
import { AuthError } from "../auth/errors.ts";
import { endOwnSession } from "../auth/models/sessions.ts";
import type { Queryable } from "../db/database.ts";
import { isUuid } from "../platform/uuid.ts";
import { FunctionError } from "./errors.ts";

type SessionListRow = {
  id: string;
  aal: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Date;
  updated_at: Date;
  refreshed_at: Date | null;
};

/** Every session of the user: when it started, when it was last refreshed, where from. */
export async function sessionsOf(q: Queryable, userId: string): Promise<SessionListRow[]> {
  return q.query<SessionListRow>(
    `SELECT id, aal, user_agent, ip, created_at, updated_at, refreshed_at
       FROM auth.sessions WHERE user_id = $1
      ORDER BY coalesce(refreshed_at, created_at) DESC, id`,
    [userId],
  );
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The signed-in caller, or 401 in the functions' shape. */
const callerOf = (app: FastifyInstance, request: FastifyRequest) =>
  authenticate(app.db, app.tokens, request).catch((err: unknown) => {
    if (err instanceof AuthError)
      throw new FunctionError(401, "invalid_jwt", "Sign in to see your sessions.");
    throw err;
  });

export function registerSessionsFunction(app: FastifyInstance) {
  app.delete<{ Params: { id: string } }>(`/${FUNCTIONS.sessions}/:id`, async (request, reply) => {
    const caller = await callerOf(app, request);
    const { id } = request.params;
    if (!isUuid(id) || !(await endOwnSession(app.db, caller.user.id, id)))
      throw new FunctionError(404, "not_found", "You have no session with this id.");
    return reply.code(204).send();
  });

  app.get(`/${FUNCTIONS.sessions}`, async (request) => {
    const caller = await callerOf(app, request);
    const rows = await sessionsOf(app.db, caller.user.id);
    const sessions: AccountSession[] = rows.map((s) => ({
      id: s.id,
      current: s.id === caller.session.id,
      aal: s.aal,
      user_agent: s.user_agent || null,
      ip: s.ip || null,
      created_at: iso(s.created_at)!,
      updated_at: iso(s.updated_at)!,
      refreshed_at: iso(s.refreshed_at),
    }));
    return { sessions };
  });
}
