// The audit log keeps an entry AUDIT_KEEP_DAYS (the privacy policy's 12 months): older ones are
// deleted by the retention job every server runs at start and then hourly, the oldest first in
// batches; younger ones stay.
import { expect, it } from "vitest";
import { startApiServer } from "../../tests/support/api-server.ts";
import { describeWithDatabase } from "../../tests/support/databases.ts";
import { waitUntil } from "../../tests/support/poll.ts";
import { migrate } from "../db/migrate.ts";
import { AUDIT_KEEP_DAYS, deleteExpiredAuditEntries } from "./audit-log.ts";

describeWithDatabase("audit log retention", (ctx) => {
  it("deletes the entries older than the keeping time, in batches, and keeps the younger ones", async () => {
    // Before any server runs: one that started earlier might be deleting while these are written.
    await migrate(ctx.db);
    const tag = `retention-${Date.now()}`;
    const insert = (label: string, age: string, n = 1) =>
      ctx.db.query(
        `INSERT INTO auth.audit_log_entries (payload, created_at)
         SELECT jsonb_build_object('actor_username', $1::text, 'action', 'login'), ${age}
         FROM generate_series(1, $2)`,
        [`${label}-${tag}`, n],
      );
    // More old entries than one batch deletes, one just past the time, and two within it.
    await insert("old", `now() - make_interval(days => ${AUDIT_KEEP_DAYS} + 30)`, 1500);
    await insert("just-past", `now() - make_interval(days => ${AUDIT_KEEP_DAYS}, hours => 1)`);
    await insert("within", `now() - make_interval(days => ${AUDIT_KEEP_DAYS}) + interval '1 hour'`);
    await insert("today", "now()");
    const left = async () =>
      (
        await ctx.db.query<{ who: string; n: number }>(
          `SELECT payload->>'actor_username' AS who, count(*)::int AS n FROM auth.audit_log_entries
           WHERE payload->>'actor_username' LIKE $1 GROUP BY 1 ORDER BY 1`,
          [`%-${tag}`],
        )
      ).map((r) => `${r.who.replace(`-${tag}`, "")}:${r.n}`);
    expect(await left()).toEqual(["just-past:1", "old:1500", "today:1", "within:1"]);

    // The job every server runs.
    const server = await startApiServer(ctx.db);
    try {
      await waitUntil(async () => (await left()).length === 2, 15_000);
      expect(await left()).toEqual(["today:1", "within:1"]);
    } finally {
      await server.close();
    }
    // A second run finds nothing more to delete.
    expect(await deleteExpiredAuditEntries(ctx.db)).toBe(0);
  });
});
