// A lead's timeline through supabase-js as the workspace writes it: notes, calls and emails logged
// are added (never overwritten), read newest first with who wrote them; a note to no lead, an empty
// or unknown one, is refused and nothing is written; no note is changed or deleted; someone off the
// team or without the second factor adds none.
import type { SupabaseClient } from "@supabase/supabase-js";
import { beforeAll, expect, it } from "vitest";
import { PASSWORD } from "../../../tests/support/auth.ts";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { teamMember } from "../../../tests/support/team.ts";

describeAuthSuite("rest: a lead's timeline of notes", (suite) => {
  const { ctx } = suite;
  let member: SupabaseClient;
  let email: string;
  let leadId: string;

  beforeAll(async () => {
    ({ supabase: member, email } = await teamMember(suite, "notes", { aal2: true }));
    const [row] = await ctx.db.query<{ id: string }>(
      `INSERT INTO public.contact_messages (name, email, phone, message)
       VALUES ('Dee Ro', 'dee@notes.example', '+1 206 555 0102', 'Hello') RETURNING id`,
    );
    leadId = row!.id;
  });

  const notes = () =>
    ctx.db.query<{ type: string; body: string }>(
      "SELECT type, body FROM public.lead_notes WHERE lead_id = $1 ORDER BY created_at, id",
      [leadId],
    );

  it("adds notes, calls and emails to the timeline, read newest first with who wrote them", async () => {
    const added = await member
      .from("lead_notes")
      .insert({ kind: "contact", lead_id: leadId, body: "  Met at the fair  " })
      .select()
      .single();
    expect([added.status, added.error]).toEqual([201, null]);
    expect(added.data).toMatchObject({ type: "note", body: "Met at the fair" });
    for (const [type, body] of [
      ["call", "Called: wants a demo"],
      ["email", "Sent the pricing sheet"],
    ])
      expect(
        (await member.from("lead_notes").insert({ kind: "contact", lead_id: leadId, type, body }))
          .error,
      ).toBeNull();
    const read = await member
      .from("lead_notes")
      .select("type,body,created_by_email")
      .eq("lead_id", leadId)
      .order("created_at", { ascending: false });
    expect(read.data).toEqual([
      { type: "email", body: "Sent the pricing sheet", created_by_email: email },
      { type: "call", body: "Called: wants a demo", created_by_email: email },
      { type: "note", body: "Met at the fair", created_by_email: email },
    ]);
  });

  it("refuses a note to no lead, an empty one, an unknown type or column, and writes nothing", async () => {
    const before = await notes();
    for (const [row, status, code] of [
      [{ kind: "contact", lead_id: crypto.randomUUID(), body: "Hi" }, 409, "23503"],
      [{ kind: "request_demo", lead_id: leadId, body: "Hi" }, 409, "23503"],
      [{ kind: "contact", lead_id: leadId, body: "   " }, 400, "23514"],
      [{ kind: "contact", lead_id: leadId, body: "x".repeat(5001) }, 400, "23514"],
      [{ kind: "contact", lead_id: leadId, type: "sms", body: "Hi" }, 400, "23514"],
      [
        { kind: "contact", lead_id: leadId, body: "Hi", created_by: crypto.randomUUID() },
        400,
        "PGRST204",
      ],
    ] as const) {
      const answer = await member.from("lead_notes").insert(row);
      expect([answer.status, answer.error?.code], JSON.stringify(row).slice(0, 80)).toEqual([
        status,
        code,
      ]);
    }
    expect(await notes()).toEqual(before);
  });

  it("changes and deletes no note, and lets nobody off the team or without the second factor add one", async () => {
    const before = await notes();
    const changed = await member
      .from("lead_notes")
      .update({ body: "Rewritten" })
      .eq("lead_id", leadId);
    const deleted = await member.from("lead_notes").delete().eq("lead_id", leadId);
    expect([changed.status, deleted.status]).toEqual([403, 403]);
    const { supabase: aal1 } = await teamMember(suite, "notes-aal1", { aal2: false });
    const outsider = suite.client();
    const { email: outsiderEmail } = await suite.confirmedUser("notes-outsider");
    await outsider.auth.signInWithPassword({ email: outsiderEmail, password: PASSWORD });
    for (const client of [aal1, outsider, suite.client()]) {
      const answer = await client
        .from("lead_notes")
        .insert({ kind: "contact", lead_id: leadId, body: "Hi" });
      expect([401, 403]).toContain(answer.status);
      expect(answer.error?.code).toBe("42501");
    }
    expect(await notes()).toEqual(before);
  });
});
