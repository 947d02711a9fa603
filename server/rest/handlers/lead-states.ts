// POST /rest/v1/lead_states: team members write the team's work on a lead (its status, with a
// reason when lost; its owner, a team member; its next step with the due date), as supabase-js
// upserts a row of `lead_states` (POST with `Prefer: resolution=merge-duplicates`; with
// ignore-duplicates an existing row stays as it is; a plain insert of an existing row is 409).
// Only the parts sent change (a status sent without `lost` clears the reason); who changed them
// and when is recorded on the row and, for each real change, in `lead_state_changes` (by the
// database: migration 0039). The lead must exist in the `leads` view. Notes are a timeline of their
// own (handlers/lead-notes.ts).
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { LEAD_STATUSES, TEAM_ROLES } from "../../../common/workspace.ts";
import type { Queryable } from "../../db/database.ts";
import { PostgrestError } from "../errors.ts";
import { oneRowOf } from "../one-row.ts";
import { parsePrefer, type Preferences } from "../prefer.ts";
import { asRequested, claimsOf } from "../request.ts";
import { assertTeamReader } from "../team-access.ts";
import { restTime } from "../times.ts";

const text = z.string().trim().min(1).max(500);
const rowSchema = z
  .object({
    kind: z.string().max(40),
    lead_id: z.uuid(),
    status: z.enum(LEAD_STATUSES).optional(),
    lost_reason: text.nullable().optional(),
    owner_id: z.uuid().nullable().optional(),
    next_step: text.nullable().optional(),
    due_on: z.iso.date().nullable().optional(),
  })
  .strict()
  // A lost lead says why, and only a lost one has a reason.
  .refine((r) => (r.status === "lost") === Boolean(r.lost_reason) || r.status === undefined, {
    path: ["lost_reason"],
    message: "A lost lead needs a reason, and only a lost one has one",
  })
  .refine((r) => r.status !== undefined || r.lost_reason === undefined, {
    path: ["lost_reason"],
    message: "The reason goes with the status lost",
  })
  // The next step and its due date are set, or cleared, together.
  .refine((r) => (r.next_step === undefined) === (r.due_on === undefined), {
    path: ["due_on"],
    message: "The next step and its due date go together",
  })
  .refine((r) => (r.next_step === null) === (r.due_on === null), {
    path: ["due_on"],
    message: "A next step has a due date",
  });

type LeadStateRow = z.output<typeof rowSchema>;

/** An owner is a team member (with a role now, their account not deleted): else 409. */
async function assertOwner(q: Queryable, ownerId: string | null | undefined): Promise<void> {
  if (!ownerId) return;
  const [member] = await q.query(
    `SELECT 1 FROM auth.users WHERE id = $1 AND deleted_at IS NULL
       AND raw_app_meta_data->>'team_role' = ANY($2)`,
    [ownerId, TEAM_ROLES],
  );
  if (!member)
    throw new PostgrestError(
      409,
      "23503",
      'insert or update on table "lead_states" violates foreign key constraint "lead_states_owner_id_fkey"',
      `Key (owner_id)=(${ownerId}) is not a member of the team.`,
    );
}

/** What `on_conflict` may name: the row's key (its columns in any order), as PostgreSQL matches it. */
function assertConflictTarget(onConflict: string | undefined): void {
  if (onConflict === undefined) return;
  const named = onConflict.split(",").map((c) => c.trim());
  if (named.length !== 2 || !named.includes("kind") || !named.includes("lead_id"))
    throw new PostgrestError(
      400,
      "42P10",
      "there is no unique or exclusion constraint matching the ON CONFLICT specification",
    );
}

/** The state of a lead nobody touched yet, as the `leads` view shows it. */
const untouched = (row: LeadStateRow) => ({
  kind: row.kind,
  lead_id: row.lead_id,
  status: "new",
  lost_reason: null,
  owner_id: null,
  next_step: null,
  due_on: null,
  updated_by: null,
  updated_at: null,
});

/**
 * Writes the row (merged into the existing one with merge-duplicates) and returns the row as
 * stored, or null when ignore-duplicates left an existing row as it was; PostgreSQL's 409s for a
 * missing lead (23503) or an existing row otherwise (23505). The database records each real
 * change in the history and keeps the time of the last one (migration 0039); a write that
 * changes nothing of a lead nobody touched yet (status `new`, no owner, no next step) stores no
 * row at all, so that it starts no keeping time, and answers the lead's state as the `leads` view
 * shows it.
 */
async function writeLeadState(
  q: Queryable,
  row: LeadStateRow,
  by: string | undefined,
  resolution: Preferences["resolution"],
): Promise<Record<string, unknown> | null> {
  const [written] = await q.query<{
    lead_exists: boolean;
    changes: boolean;
    state: Record<string, unknown> | null;
  }>(
    `WITH lead AS (
       SELECT 1 FROM public.leads WHERE kind = $1 AND id = $2
     ), changes AS (
       SELECT coalesce($3, 'new') <> 'new' OR $5::uuid IS NOT NULL OR $6::text IS NOT NULL
         OR EXISTS (SELECT 1 FROM public.lead_states WHERE kind = $1 AND lead_id = $2) AS changes
     ), state AS (
       INSERT INTO public.lead_states
         (kind, lead_id, status, lost_reason, owner_id, next_step, due_on, updated_by, updated_at)
       SELECT $1, $2, coalesce($3, 'new'), $4, $5, $6, $7::date, $8, now()
       FROM lead, changes WHERE changes
       ON CONFLICT (kind, lead_id) DO UPDATE SET
         status = CASE WHEN $3::text IS NULL THEN lead_states.status ELSE EXCLUDED.status END,
         lost_reason = CASE WHEN $3::text IS NULL THEN lead_states.lost_reason
           ELSE EXCLUDED.lost_reason END,
         owner_id = CASE WHEN $9::boolean THEN EXCLUDED.owner_id ELSE lead_states.owner_id END,
         next_step = CASE WHEN $10::boolean THEN EXCLUDED.next_step ELSE lead_states.next_step END,
         due_on = CASE WHEN $10::boolean THEN EXCLUDED.due_on ELSE lead_states.due_on END,
         updated_by = EXCLUDED.updated_by, updated_at = now()
       WHERE $11::boolean
       RETURNING kind, lead_id, status, lost_reason, owner_id, next_step, due_on::text AS due_on,
         updated_by, updated_at
     )
     SELECT EXISTS (SELECT 1 FROM lead) AS lead_exists, (SELECT changes FROM changes) AS changes,
       (SELECT to_jsonb(state) || jsonb_build_object('updated_at', ${restTime("state.updated_at")})
        FROM state) AS state`,
    [
      row.kind,
      row.lead_id,
      row.status ?? null,
      row.lost_reason ?? null,
      row.owner_id ?? null,
      row.next_step ?? null,
      row.due_on ?? null,
      by ?? null,
      row.owner_id !== undefined,
      row.next_step !== undefined,
      resolution === "merge-duplicates",
    ],
  );
  if (!written!.lead_exists)
    throw new PostgrestError(
      409,
      "23503",
      'insert or update on table "lead_states" violates foreign key constraint "lead_states_lead_fkey"',
      `Key (kind, lead_id)=(${row.kind}, ${row.lead_id}) is not present in view "leads".`,
    );
  if (!written!.changes) return untouched(row);
  if (!written!.state && resolution === "ignore-duplicates") return null;
  if (!written!.state)
    throw new PostgrestError(
      409,
      "23505",
      'duplicate key value violates unique constraint "lead_states_pkey"',
      `Key (kind, lead_id)=(${row.kind}, ${row.lead_id}) already exists.`,
    );
  return written!.state;
}

export default async function leadStates(app: FastifyInstance) {
  app.post<{ Querystring: Record<string, string | undefined> }>(
    "/lead_states",
    async (request, reply) => {
      const claims = await claimsOf(app, request);
      const { userId } = await assertTeamReader(app.db, claims, "table lead_states");
      const prefer = parsePrefer(request.headers.prefer);
      assertConflictTarget(request.query.on_conflict);
      const row = oneRowOf(rowSchema, request.body, "lead_states");
      await assertOwner(app.db, row.owner_id);
      const state = await writeLeadState(app.db, row, userId, prefer.resolution);
      if (prefer.applied.length) reply.header("preference-applied", prefer.applied.join(", "));
      reply.code(201);
      return prefer.return === "representation"
        ? asRequested(request, reply, state ? [state] : [])
        : reply.send();
    },
  );
}
