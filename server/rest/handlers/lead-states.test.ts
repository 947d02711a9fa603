// Saving the team's work on a lead as the workspace's Follow-up form does (common/workspace.ts
// followUpChange, through supabase-js): two members saving the same lead at once each keep their
// own change; a save that changes nothing leaves no history and keeps the lead's retention clock;
// each change is recorded with the fields it changed; a lost lead needs its reason, a next step its
// due date, an owner must be on the team; a body of several rows is refused with the one-row
// rule's message.
import type { SupabaseClient } from "@supabase/supabase-js";
import { beforeAll, expect, it } from "vitest";
import { followUpChange, type LeadWork } from "../../../common/workspace.ts";
import { describeAuthSuiteEachDatabase } from "../../../tests/support/auth-suite.ts";
import { teamMember } from "../../../tests/support/team.ts";

type LoadedLead = { id: string; kind: string } & LeadWork;
type Edited = Parameters<typeof followUpChange>[1];

describeAuthSuiteEachDatabase("rest: saving a lead's follow-up", (suite) => {
  const { ctx } = suite;
  let a: SupabaseClient;
  let b: SupabaseClient;
  let bId: string;

  beforeAll(async () => {
    ({ supabase: a } = await teamMember(suite, "follow-a", { aal2: true }));
    ({ supabase: b, id: bId } = await teamMember(suite, "follow-b", { aal2: true }));
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

  /** The form as loaded, with `patch` edited. */
  const edit = (lead: LoadedLead, patch: Partial<Edited>): Edited => ({
    status: lead.status,
    lost_reason: lead.lost_reason ?? "",
    owner_id: lead.owner_id ?? "",
    next_step: lead.next_step ?? "",
    due_on: lead.due_on ?? "",
    ...patch,
  });

  /** The Follow-up form's Save: the upsert of what changed, or nothing. */
  async function save(member: SupabaseClient, loaded: LoadedLead, patch: Partial<Edited>) {
    const change = followUpChange(loaded, edit(loaded, patch));
    if (!change) return undefined;
    const { error } = await member
      .from("lead_states")
      .upsert(change, { onConflict: "kind,lead_id" });
    expect(error).toBeNull();
    return change;
  }

  const stored = (id: string) =>
    ctx.db.query<{ status: string; updated_at: Date }>(
      "SELECT status, updated_at FROM public.lead_states WHERE lead_id = $1",
      [id],
    );
  const history = (id: string) =>
    ctx.db.query<{ fields: string[]; status: string }>(
      "SELECT fields, status FROM public.lead_state_changes WHERE lead_id = $1 ORDER BY changed_at, id",
      [id],
    );

  it("keeps both members' changes when they save the same lead at once", async () => {
    const seenByA = await newLead(a);
    const seenByB = await open(b, seenByA.id);
    const [byA, byB] = await Promise.all([
      save(a, seenByA, { status: "qualified" }),
      save(b, seenByB, { owner_id: bId, next_step: "Send pricing", due_on: "2026-12-03" }),
    ]);
    // Each sends only its own part.
    expect([byA, byB]).toEqual([
      { kind: "contact", lead_id: seenByA.id, status: "qualified" },
      {
        kind: "contact",
        lead_id: seenByA.id,
        owner_id: bId,
        next_step: "Send pricing",
        due_on: "2026-12-03",
      },
    ]);
    expect(await open(a, seenByA.id)).toMatchObject({
      status: "qualified",
      owner_id: bId,
      next_step: "Send pricing",
      due_on: "2026-12-03",
    });
    // Then each saves again from what it loaded then: still only its own (unchanged) part.
    expect(await save(a, seenByA, { status: "qualified" })).toEqual({
      kind: "contact",
      lead_id: seenByA.id,
      status: "qualified",
    });
    expect(await open(b, seenByA.id)).toMatchObject({ status: "qualified", owner_id: bId });
  });

  it("sends nothing when nothing changed, texts compared trimmed, a reason only with lost", async () => {
    const lead = await newLead(a);
    expect(await save(a, lead, { next_step: "  ", lost_reason: "ignored" })).toBeUndefined();
    const lost = { ...lead, status: "lost" as const, lost_reason: "Too small" };
    expect(followUpChange(lost, edit(lost, { lost_reason: " Too small " }))).toBeNull();
    expect(followUpChange(lost, edit(lost, { status: "contacted" }))).toEqual({
      kind: "contact",
      lead_id: lead.id,
      status: "contacted",
    });
    expect(followUpChange(lead, edit(lead, { status: "lost", lost_reason: " Budget " }))).toEqual({
      kind: "contact",
      lead_id: lead.id,
      status: "lost",
      lost_reason: "Budget",
    });
  });

  it("records each save once, naming what it changed, and only a change restarts the retention clock", async () => {
    const lead = await newLead(a);
    const upsert = (row: Record<string, unknown>) =>
      a
        .from("lead_states")
        .upsert({ kind: "contact", lead_id: lead.id, ...row })
        .select()
        .single();
    // Nothing changes a lead nobody touched: no row, no history.
    for (const row of [
      {},
      { status: "new" },
      { owner_id: null },
      { next_step: null, due_on: null },
    ]) {
      const answer = await upsert(row);
      expect([answer.status, answer.error]).toEqual([201, null]);
      expect(answer.data).toMatchObject({ status: "new", owner_id: null, next_step: null });
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
      { owner_id: null },
      { next_step: null, due_on: null },
    ])
      expect((await upsert(row)).error).toBeNull();
    expect(await stored(lead.id)).toEqual([before]);
    expect(await history(lead.id)).toEqual([{ fields: ["status"], status: "contacted" }]);

    const saved = await upsert({
      status: "lost",
      lost_reason: "Chose another tool",
      next_step: "Ask again in spring",
      due_on: "2027-03-01",
    });
    expect(saved.error).toBeNull();
    expect(saved.data).toMatchObject({
      status: "lost",
      lost_reason: "Chose another tool",
      due_on: "2027-03-01",
    });
    const [after] = await stored(lead.id);
    expect(after!.updated_at.getTime()).toBeGreaterThan(before!.updated_at.getTime());
    expect((await history(lead.id)).at(-1)).toEqual({
      fields: ["status", "next_step"],
      status: "lost",
    });
    // Moving on from lost drops the reason.
    expect((await upsert({ status: "qualified" })).data).toMatchObject({ lost_reason: null });
  });

  it("refuses a lost lead without a reason, a next step without its date, and an owner off the team, writing nothing", async () => {
    const lead = await newLead(a);
    const outsider = await suite.confirmedUser("follow-outsider");
    for (const [row, status, code] of [
      [{ status: "lost" }, 400, "23514"],
      [{ status: "lost", lost_reason: "  " }, 400, "23514"],
      [{ status: "won", lost_reason: "Why" }, 400, "23514"],
      [{ lost_reason: "Why" }, 400, "23514"],
      [{ next_step: "Call" }, 400, "23514"],
      [{ next_step: "Call", due_on: null }, 400, "23514"],
      [{ next_step: "Call", due_on: "2026-02-30" }, 400, "23514"],
      [{ status: "closed" }, 400, "23514"],
      [{ owner_id: outsider.session.user.id }, 409, "23503"],
      [{ note: "Overwritten?" }, 400, "PGRST204"],
    ] as const) {
      const answer = await a
        .from("lead_states")
        .upsert({ kind: "contact", lead_id: lead.id, ...row });
      expect([answer.status, answer.error?.code], JSON.stringify(row)).toEqual([status, code]);
    }
    expect(await stored(lead.id)).toEqual([]);
  });

  it("deletes a member who saved and owned a lead; the lead keeps its state, by nobody, owned by nobody", async () => {
    const leaver = await teamMember(suite, "follow-leaver", { aal2: true });
    const lead = await newLead(leaver.supabase);
    expect(
      await save(leaver.supabase, lead, { status: "contacted", owner_id: leaver.id }),
    ).toBeTruthy();
    const [before] = await stored(lead.id);
    const { error } = await suite.server.admin().auth.admin.deleteUser(leaver.id);
    expect(error).toBeNull();
    const [after] = await stored(lead.id);
    expect(after).toEqual(before);
    expect(
      await ctx.db.query("SELECT updated_by, owner_id FROM public.lead_states WHERE lead_id = $1", [
        lead.id,
      ]),
    ).toEqual([{ updated_by: null, owner_id: null }]);
    expect(await history(lead.id)).toEqual([
      { fields: ["status", "owner_id"], status: "contacted" },
    ]);
  });

  it("refuses several rows in one save with the one-row rule's message", async () => {
    const lead = await newLead(a);
    const rows = [
      { kind: "contact", lead_id: lead.id, status: "won" },
      { kind: "contact", lead_id: lead.id, status: "junk" },
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
