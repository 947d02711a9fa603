// POST /rest/v1/lead_notes: team members add a note to a lead's timeline (a note, a call logged or
// an email sent), as supabase-js inserts a row. A note is added, never changed nor removed: the
// timeline keeps who wrote what and when. The lead must exist in the `leads` view.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { NOTE_TYPES } from "../../../common/workspace.ts";
import { PostgrestError } from "../errors.ts";
import { oneRowOf } from "../one-row.ts";
import { parsePrefer } from "../prefer.ts";
import { asRequested, claimsOf } from "../request.ts";
import { assertTeamReader } from "../team-access.ts";
import { restTime } from "../times.ts";

const noteSchema = z
  .object({
    kind: z.string().max(40),
    lead_id: z.uuid(),
    type: z.enum(NOTE_TYPES).default("note"),
    body: z.string().trim().min(1).max(5000),
  })
  .strict();

export default async function leadNotes(app: FastifyInstance) {
  app.post("/lead_notes", async (request, reply) => {
    const claims = await claimsOf(app, request);
    const { userId } = await assertTeamReader(app.db, claims, "table lead_notes");
    const prefer = parsePrefer(request.headers.prefer);
    const note = oneRowOf(noteSchema, request.body, "lead_notes");
    const [added] = await app.db.query<{ row: Record<string, unknown> | null }>(
      `WITH note AS (
         INSERT INTO public.lead_notes (kind, lead_id, type, body, created_by)
         SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM public.leads WHERE kind = $1 AND id = $2)
         RETURNING *
       )
       SELECT to_jsonb(note) || jsonb_build_object('created_at', ${restTime("note.created_at")}) AS row
       FROM note`,
      [note.kind, note.lead_id, note.type, note.body, userId ?? null],
    );
    if (!added)
      throw new PostgrestError(
        409,
        "23503",
        'insert or update on table "lead_notes" violates foreign key constraint "lead_notes_lead_fkey"',
        `Key (kind, lead_id)=(${note.kind}, ${note.lead_id}) is not present in view "leads".`,
      );
    reply.code(201);
    return prefer.return === "representation"
      ? asRequested(request, reply, [added.row])
      : reply.send();
  });
}
