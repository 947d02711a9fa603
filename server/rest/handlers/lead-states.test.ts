// Saving a lead's status and note as the workspace's Follow-up form does (common/workspace.ts
// followUpChange, through supabase-js): two members saving the same lead at once each keep their
// own change; a save that changes nothing leaves no history and keeps the lead's retention clock;
// a body of several rows is refused with the one-row rule's message.
import type { SupabaseClient } from "@supabase/supabase-js";
import { beforeAll, expect, it } from "vitest";
import { followUpChange, type LeadStatus } from "../../../common/workspace.ts";
import { describeAuthSuiteEachDatabase } from "../../../tests/support/auth-suite.ts";
import { teamMember } from "../../../tests/support/team.ts";

type LoadedLead = { id: string; kind: string; status: LeadStatus; note: string | null };

describeAuthSuiteEachDatabase("rest: saving a lead's follow-up", (suite) => {
  const { ctx } = suite;
  let a: SupabaseClient;
  let b: SupabaseClient;

  beforeAll(async () => {
    ({ supabase: a } = await teamMember(suite, "follow-a", { aal2: true }));
    ({ supabase: b } = await teamMember(suite, "follow-b", { aal2: true }));
  });

  /** A new contact lead, as a member opens it. */
  async function newLead(reader: SupabaseClient): Promise<LoadedLead> {
    const [row] = await ctx.db.query<{ id: string }>(
      `INSERT INTO public.contact_messages (name, email, phone, message)
       VALUES ('Cleo Park', $1, '+1 206 555 0101', 'Pricing?') RETURNING id`,
      [`cleo-${crypto.randomUUID()}@follow.example`],
    );
    return open(reader, row!.id);
  }

  const open = async (reader: SupabaseClient, id: string) =>
    (await reader.from("leads").select("*").eq("id", id).single()).data as LoadedLead;

  /** The Follow-up form's Save: the upsert of what changed, or nothing. */
  async function save(
    member: SupabaseClient,
    loaded: LoadedLead,
    edited: { status: LeadStatus; note: string },
  ) {
    const change = followUpChange(loaded, edited);
    if (!change) return undefined;
    const { error } = await member
      .from("lead_states")
      .upsert(change, { onConflict: "kind,lead_id" });
    expect(error).toBeNull();
    return change;
  }

  const stored = (id: string) =>
    ctx.db.query<{ status: string; note: string | null; updated_at: Date }>(
      "SELECT status, note, updated_at FROM public.lead_states WHERE lead_id = $1",
      [id],
    );
  const history = (id: string) =>
    ctx.db.query<{ status: string | null; note: string | null }>(
      "SELECT status, note FROM public.lead_state_changes WHERE lead_id = $1 ORDER BY changed_at, id",
      [id],
    );

  it("keeps both members' changes when they save the same lead at once", async () => {
    const seenByA = await newLead(a);
    const seenByB = await open(b, seenByA.id);
    const [byA, byB] = await Promise.all([
      save(a, seenByA, { status: "qualified", note: "" }),
      save(b, seenByB, { status: seenByB.status, note: "Called, wants pricing" }),
    ]);
    // Each sends only its own field.
    expect([byA, byB]).toEqual([
      { kind: "contact", lead_id: seenByA.id, status: "qualified" },
      { kind: "contact", lead_id: seenByA.id, note: "Called, wants pricing" },
    ]);
    expect(await open(a, seenByA.id)).toMatchObject({
      status: "qualified",
      note: "Called, wants pricing",
    });
    // Then each saves again from what it loaded then: still only its own (unchanged) field.
    expect(await save(a, seenByA, { status: "qualified", note: "" })).toEqual({
      kind: "contact",
      lead_id: seenByA.id,
      status: "qualified",
    });
    expect(await open(b, seenByA.id)).toMatchObject({
      status: "qualified",
      note: "Called, wants pricing",
    });
  });

  it("sends nothing when nothing changed, and a note is compared trimmed", async () => {
    const lead = await newLead(a);
    expect(await save(a, lead, { status: "new", note: "  " })).toBeUndefined();
    expect(followUpChange({ ...lead, note: "Hi" }, { status: "new", note: " Hi " })).toBeNull();
    expect(followUpChange({ ...lead, note: "Hi" }, { status: "new", note: "" })).toEqual({
      kind: "contact",
      lead_id: lead.id,
      note: null,
    });
  });

  it("records a change only when the status or note changes, and only then restarts the retention clock", async () => {
    const lead = await newLead(a);
    const upsert = (row: Record<string, unknown>) =>
      a
        .from("lead_states")
        .upsert({ kind: "contact", lead_id: lead.id, ...row })
        .select()
        .single();
    // Nothing changes a lead nobody touched: no row, no history.
    for (const row of [{}, { status: "new" }, { note: null }, { status: "new", note: null }]) {
      const answer = await upsert(row);
      expect([answer.status, answer.error]).toEqual([201, null]);
      expect(answer.data).toMatchObject({ status: "new", note: null });
    }
    expect(await stored(lead.id)).toEqual([]);
    expect(await history(lead.id)).toEqual([]);

    expect((await upsert({ status: "contacted" })).error).toBeNull();
    // An old change: the clock then restarts only on a real change.
    await ctx.db.query(
      "UPDATE public.lead_states SET updated_at = now() - interval '20 months' WHERE lead_id = $1",
      [lead.id],
    );
    const [before] = await stored(lead.id);
    for (const row of [
      { status: "contacted" },
      { note: null },
      { status: "contacted", note: null },
    ])
      expect((await upsert(row)).error).toBeNull();
    expect(await stored(lead.id)).toEqual([before]);
    expect(await history(lead.id)).toEqual([{ status: "contacted", note: null }]);

    // Sending both with one changed records the one that changed.
    expect((await upsert({ status: "contacted", note: "Asked for a quote" })).error).toBeNull();
    const [after] = await stored(lead.id);
    expect(after!.updated_at.getTime()).toBeGreaterThan(before!.updated_at.getTime());
    expect(await history(lead.id)).toEqual([
      { status: "contacted", note: null },
      { status: null, note: "Asked for a quote" },
    ]);

    // A removed note is recorded as an empty one (NULL is "the note did not change").
    expect((await upsert({ note: null })).error).toBeNull();
    expect((await history(lead.id)).at(-1)).toEqual({ status: null, note: "" });
  });

  it("deletes a member who saved a lead; the lead keeps its state, by nobody", async () => {
    const leaver = await teamMember(suite, "follow-leaver", { aal2: true });
    const lead = await newLead(leaver.supabase);
    expect(await save(leaver.supabase, lead, { status: "contacted", note: "" })).toBeTruthy();
    const [before] = await stored(lead.id);
    const { error } = await suite.server.admin().auth.admin.deleteUser(leaver.id);
    expect(error).toBeNull();
    const [after] = await stored(lead.id);
    expect(after).toEqual(before);
    expect(
      await ctx.db.query("SELECT updated_by FROM public.lead_states WHERE lead_id = $1", [lead.id]),
    ).toEqual([{ updated_by: null }]);
    expect(await history(lead.id)).toEqual([{ status: "contacted", note: null }]);
  });

  it("refuses several rows in one save with the one-row rule's message", async () => {
    const lead = await newLead(a);
    const rows = [
      { kind: "contact", lead_id: lead.id, status: "closed" },
      { kind: "contact", lead_id: lead.id, note: "Two" },
    ];
    const answer = await a.from("lead_states").upsert(rows);
    expect([answer.status, answer.error]).toEqual([
      400,
      expect.objectContaining({
        code: "PGRST102",
        message: "One row per request",
        details: "The body holds 2 rows",
        hint: "Send one object per request",
      }),
    ]);
    expect(await stored(lead.id)).toEqual([]);
  });
});
