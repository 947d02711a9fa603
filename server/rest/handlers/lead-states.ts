// POST /rest/v1/lead_states: team members write a lead's status and internal note, as supabase-js
// upserts a row of `lead_states`
// (POST with `Prefer: resolution=merge-duplicates`; with ignore-duplicates an existing row stays as
// it is; a plain insert of an existing row is 409).
// Only the columns sent change; who changed them and when is recorded on the row and, for each
// real change, in `lead_state_changes` (by the database: migration 0027). The lead must exist in
// the `leads` view.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { LEAD_STATUSES } from "../../../common/workspace.ts";
import type { Queryable } from "../../db/database.ts";
import { PostgrestError } from "../errors.ts";
import { oneRow } from "../one-row.ts";
import { parsePrefer, type Preferences } from "../prefer.ts";
import { asRequested, claimsOf } from "../request.ts";
import { assertTeamReader } from "../team-access.ts";
import { restTime } from "../times.ts";

const rowSchema = z
  .object({
    kind: z.string().max(40),
    lead_id: z.uuid(),
    status: z.enum(LEAD_STATUSES).optional(),
    note: z.string().max(5000).nullable().optional(),
  })
  .strict();

type LeadStateRow = z.output<typeof rowSchema>;

/** The body as one row, or PostgREST's 400 naming what is wrong. */
function readLeadState(body: unknown): LeadStateRow {
  const parsed = rowSchema.safeParse(oneRow(body));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === "unrecognized_keys")
      throw new PostgrestError(
        400,
        "PGRST204",
        `Could not find the '${issue.keys[0]}' column of 'lead_states' in the schema cache`,
      );
    throw new PostgrestError(
      400,
      "23514",
      `new row for relation "lead_states" violates check constraint on ${String(issue.path[0])}`,
      issue.message,
    );
  }
  return parsed.data;
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

/**
 * Writes the row (merged into the existing one with merge-duplicates) and returns the row as
 * stored, or null when ignore-duplicates left an existing row as it was; PostgreSQL's 409s for a
 * missing lead (23503) or an existing row otherwise (23505). The database records each real
 * change in the history and keeps the time of the last one (migration 0027); a write that
 * changes nothing of a lead nobody touched yet (status `new`, no note) stores no row at all, so
 * that it starts no keeping time, and answers the lead's state as the `leads` view shows it.
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
       SELECT coalesce($3, 'new') <> 'new' OR ($6::boolean AND $4::text IS NOT NULL)
         OR EXISTS (SELECT 1 FROM public.lead_states WHERE kind = $1 AND lead_id = $2) AS changes
     ), state AS (
       INSERT INTO public.lead_states (kind, lead_id, status, note, updated_by, updated_at)
       SELECT $1, $2, coalesce($3, 'new'), $4, $5, now() FROM lead, changes WHERE changes
       ON CONFLICT (kind, lead_id) DO UPDATE SET
         status = CASE WHEN $3::text IS NULL THEN lead_states.status ELSE EXCLUDED.status END,
         note = CASE WHEN $6::boolean THEN EXCLUDED.note ELSE lead_states.note END,
         updated_by = EXCLUDED.updated_by, updated_at = now()
       WHERE $7::boolean
       RETURNING kind, lead_id, status, note, updated_by, updated_at
     )
     SELECT EXISTS (SELECT 1 FROM lead) AS lead_exists, (SELECT changes FROM changes) AS changes,
       (SELECT to_jsonb(state) || jsonb_build_object('updated_at', ${restTime("state.updated_at")})
        FROM state) AS state`,
    [
      row.kind,
      row.lead_id,
      row.status ?? null,
      row.note ?? null,
      by ?? null,
      row.note !== undefined,
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
  if (!written!.changes)
    return {
      kind: row.kind,
      lead_id: row.lead_id,
      status: "new",
      note: null,
      updated_by: null,
      updated_at: null,
    };
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
      const row = readLeadState(request.body);
      const state = await writeLeadState(app.db, row, userId, prefer.resolution);
      if (prefer.applied.length) reply.header("preference-applied", prefer.applied.join(", "));
      reply.code(201);
      return prefer.return === "representation"
        ? asRequested(request, reply, state ? [state] : [])
        : reply.send();
    },
  );
}
