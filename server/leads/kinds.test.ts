// The names the lead kinds use stand for what the migrations created: every kind's table holds
// exactly the columns of its fields (plus id, time and source), the check constraint a refused
// REST row names is a constraint of that table, the `source` domain's check is the one named,
// and a kind that answers a repeat as the first time has the unique index its ON CONFLICT
// relies on; the leads view names each form as its kind does, and the list of kind names the site
// and the reads share (common/workspace.ts LEAD_KINDS) is the kinds' own, in table order.
import { beforeAll, expect, it } from "vitest";
import { LEAD_KINDS } from "../../common/workspace.ts";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { migrate } from "../db/migrate.ts";
import { newsletterLead } from "../newsletter/subscribers.ts";
import { REST_LEADS } from "../rest/lead-tables.ts";
import {
  columnsOf,
  contactLead,
  LEAD_SOURCE_CHECK,
  requestAccessLead,
  requestDemoLead,
  watchDemoLead,
} from "./kinds.ts";
import { RENEWED } from "./store.ts";

const KINDS = [newsletterLead, watchDemoLead, requestAccessLead, contactLead, requestDemoLead];

/**
 * Columns a kind's table keeps beyond what the form sends: the newsletter's opt-in (0020) and why
 * an address left (0042), a Watch Demo's latest request (0024).
 */
const KEPT: Partial<Record<string, string[]>> = {
  [newsletterLead.table]: [
    "status",
    "requested_at",
    "confirmed_at",
    "unsubscribed_at",
    "unsubscribe_reason",
  ],
  [watchDemoLead.table]: [RENEWED],
};

describeEachDatabase("lead kinds against the schema", (ctx) => {
  beforeAll(async () => {
    await migrate(ctx.db);
  });

  it.each(KINDS.map((kind) => [kind.table, kind] as const))(
    "%s has exactly the columns of the kind's fields, its id, time and source (and what it keeps)",
    async (table, kind) => {
      const columns = await ctx.db.query<{ column_name: string }>(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1",
        [table],
      );
      expect(columns.map((c) => c.column_name).sort()).toEqual(
        [
          ...columnsOf(kind).map((c) => c.column),
          "id",
          "created_at",
          "source",
          ...(KEPT[table] ?? []),
        ].sort(),
      );
    },
  );

  it.each(Object.entries(REST_LEADS))(
    "%s has the check constraint its refusals name",
    async (table, kind) => {
      const checks = await ctx.db.query<{ conname: string }>(
        "SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'c'",
        [`public.${table}`],
      );
      expect(checks.map((c) => c.conname)).toContain(kind.check);
    },
  );

  it("names the check of the source domain", async () => {
    const checks = await ctx.db.query<{ conname: string }>(
      "SELECT conname FROM pg_constraint WHERE contypid = 'public.lead_source'::regtype",
    );
    expect(checks.map((c) => c.conname)).toEqual([LEAD_SOURCE_CHECK]);
  });

  it.each(KINDS.filter((kind) => kind.reply).map((kind) => [kind.table] as const))(
    "%s keeps one row per address",
    async (table) => {
      const indexes = await ctx.db.query<{ indexdef: string }>(
        "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1",
        [table],
      );
      expect(indexes.map((i) => i.indexdef)).toContainEqual(
        expect.stringMatching(/^CREATE UNIQUE INDEX .* \(lower\(email\)\)$/),
      );
    },
  );
});

it("lists the kinds' names in table order where the site and the reads share them", () => {
  expect(KINDS.map((kind) => kind.name)).toEqual(LEAD_KINDS);
});

describeEachDatabase("the leads view against the kinds", (ctx) => {
  it("names each form's rows with its kind's name, and reads every form's table", async () => {
    await migrate(ctx.db);
    const definition = await ctx.db.query<{ sql: string }>(
      "SELECT pg_get_viewdef('public.leads'::regclass) AS sql",
    );
    for (const kind of KINDS) {
      expect(definition[0]!.sql).toContain(`'${kind.name}'`);
      expect(definition[0]!.sql).toContain(`FROM ${kind.table}`);
    }
  });
});
