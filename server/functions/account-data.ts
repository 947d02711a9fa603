// GET /functions/v1/account-data: "Download my data" (the privacy policy's access and portability):
// one JSON document of what the server holds about the caller. Their account as GoTrue's User JSON
// (with identities), their sessions, their factors (never a secret) and how many recovery codes
// are left (never a code), the OAuth clients they allowed, the leads and the newsletter
// subscription under their address, and their trail: the lead states they changed in the team's workspace, the notes they wrote and the
// webhook endpoints they added. Only the caller's own access token opens it (decision 0046).
import type { FastifyInstance } from "fastify";
import { FUNCTIONS } from "../../common/functions.ts";
import { listFactors, serializeFactor } from "../auth/models/factors.ts";
import { grantsOf } from "../auth/models/oauth-consents.ts";
import { recoveryCodesLeft } from "../auth/models/recovery-codes.ts";
import { identitiesOf, serializeUser } from "../auth/models/users.ts";
import type { Queryable } from "../db/database.ts";
import { LIMITS } from "../platform/rate-limit.ts";
import { ownAccount } from "./own-account.ts";
import { sessionsOf } from "./sessions.ts";

/** The form tables whose rows carry an address, and the newsletter's. */
const ADDRESS_TABLES = [
  "access_requests",
  "contact_messages",
  "demo_form_requests",
  "demo_requests",
  "newsletter_subscribers",
] as const;

/** Every row of those tables under the address (stored lower-cased), each table's rows by age. */
const ROWS_OF_ADDRESS =
  ADDRESS_TABLES.map(
    (t) =>
      `(SELECT '${t}' AS relation, to_jsonb(t) AS row, t.created_at FROM public.${t} t WHERE lower(t.email) = $1)`,
  ).join("\n UNION ALL ") + "\n ORDER BY relation, created_at";

async function rowsOfAddress(q: Queryable, email: string | null) {
  const grouped = Object.fromEntries(ADDRESS_TABLES.map((t) => [t, [] as unknown[]]));
  if (!email) return grouped;
  const rows = await q.query<{ relation: string; row: unknown }>(ROWS_OF_ADDRESS, [
    email.toLowerCase(),
  ]);
  for (const r of rows) grouped[r.relation]!.push(r.row);
  return grouped;
}

/** What the person did in the team's workspace. */
async function trailOf(q: Queryable, userId: string) {
  const [leadStateChanges, leadNotes, webhookEndpoints] = await Promise.all([
    q.query(
      `SELECT kind, lead_id, fields, status, lost_reason, owner_id, next_step,
         to_char(due_on, 'YYYY-MM-DD') AS due_on, note, changed_at FROM public.lead_state_changes
        WHERE changed_by = $1 ORDER BY changed_at, id`,
      [userId],
    ),
    q.query(
      `SELECT kind, lead_id, type, body, created_at FROM public.lead_notes
        WHERE created_by = $1 ORDER BY created_at, id`,
      [userId],
    ),
    q.query(
      `SELECT id, url, description, enabled, created_at FROM public.webhook_endpoints
        WHERE created_by = $1 ORDER BY created_at, id`,
      [userId],
    ),
  ]);
  return {
    lead_state_changes: leadStateChanges,
    lead_notes: leadNotes,
    webhook_endpoints_added: webhookEndpoints,
  };
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export function registerAccountDataFunction(app: FastifyInstance) {
  app.get(
    `/${FUNCTIONS.accountData}`,
    { config: { rateLimit: LIMITS.account } },
    async (request, reply) => {
      const { user, session } = await ownAccount(app, request, "download your data");
      const db = app.db;
      const [identities, factors, codes, sessions, grants, leads, trail] = await Promise.all([
        identitiesOf(db, user.id),
        listFactors(db, user.id),
        recoveryCodesLeft(db, user.id),
        sessionsOf(db, user.id),
        grantsOf(db, user.id),
        rowsOfAddress(db, user.email),
        trailOf(db, user.id),
      ]);
      const { newsletter_subscribers: newsletter, ...forms } = leads;
      void reply.header("content-disposition", 'attachment; filename="revwise-my-data.json"');
      return {
        exported_at: new Date().toISOString(),
        account: serializeUser(user, identities),
        sessions: sessions.map((s) => ({
          id: s.id,
          current: s.id === session.id,
          aal: s.aal,
          user_agent: s.user_agent || null,
          ip: s.ip || null,
          created_at: iso(s.created_at),
          refreshed_at: iso(s.refreshed_at),
        })),
        factors: factors.map(serializeFactor),
        oauth_grants: grants,
        recovery_codes: codes
          ? { remaining: codes.remaining, created_at: iso(codes.created_at) }
          : null,
        leads: forms,
        newsletter_subscriptions: newsletter,
        trail,
      };
    },
  );
}
