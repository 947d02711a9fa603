// Each member's daily email of their due and overdue leads: from 8 in the team's time zone, one
// per member per day, however many instances run the job at once; it lists the member's open
// leads due today or before (won, lost and junk are done) with links to each and to their list;
// nothing for a member with none, nothing before 8.
import { beforeAll, expect, it } from "vitest";
import { migrate } from "../db/migrate.ts";
import { describeEachDatabase, openAgain } from "../../tests/support/databases.ts";
import { testConfig } from "../../tests/support/app.ts";
import { runDueReminders, teamDay } from "./due-reminders.ts";

describeEachDatabase("the daily due-leads email", (ctx) => {
  const config = testConfig({ TEAM_TIME_ZONE: "America/Los_Angeles" });
  // 9:30 in Los Angeles on Dec 3, 2026 (PST, UTC−8); 7:30 is before the day's emails.
  const morning = new Date("2026-12-03T17:30:00Z");
  const early = new Date("2026-12-03T15:30:00Z");

  beforeAll(() => migrate(ctx.db));

  async function member(label: string) {
    const [row] = await ctx.db.query<{ id: string }>(
      `INSERT INTO auth.users (email, raw_app_meta_data, email_confirmed_at)
       VALUES ($1, '{"team_role": "member"}', now()) RETURNING id`,
      [`${label}-${crypto.randomUUID().slice(0, 8)}@revwise.example`],
    );
    return row!.id;
  }

  async function lead(owner: string, name: string, due: string, status = "contacted") {
    const [row] = await ctx.db.query<{ id: string }>(
      `INSERT INTO public.contact_messages (name, email, phone, message)
       VALUES ($1, $2, '+1 206 555 0100', 'Hi') RETURNING id`,
      [name, `${crypto.randomUUID().slice(0, 8)}@due.example`],
    );
    await ctx.db.query(
      `INSERT INTO public.lead_states (kind, lead_id, status, lost_reason, owner_id, next_step, due_on)
       VALUES ('contact', $1, $2, CASE WHEN $2 = 'lost' THEN 'No budget' END, $3, 'Call back', $4)`,
      [row!.id, status, owner, due],
    );
    return row!.id;
  }

  const emailsTo = (user: string) =>
    ctx.db.query<{ subject: string; text_body: string }>(
      `SELECT o.subject, o.text_body FROM mail.outbox o JOIN auth.users u ON u.email = o.to_address
       WHERE u.id = $1 AND o.kind = 'due-reminder'`,
      [user],
    );

  it("says the team's day and hour in its time zone", () => {
    expect(teamDay(morning, "America/Los_Angeles")).toEqual(["2026-12-03", 9]);
    expect(teamDay(new Date("2026-12-04T02:00:00Z"), "America/Los_Angeles")).toEqual([
      "2026-12-03",
      18,
    ]);
  });

  it("emails each member once a day their open leads due today or overdue, whichever instances run it", async () => {
    const dana = await member("dana");
    const eli = await member("eli");
    const idle = await member("idle");
    const overdue = await lead(dana, "Ada Quinn", "2026-12-01");
    await lead(dana, "Bo Lind", "2026-12-03");
    await lead(dana, "Later Lead", "2026-12-04");
    await lead(dana, "Lost Lead", "2026-12-01", "lost");
    await lead(eli, "Cy Moss", "2026-12-02");

    expect(await runDueReminders(ctx.db, config, config.teamTimeZone, early)).toBe(0);
    const other = await openAgain(ctx);
    try {
      const runs = await Promise.all([
        runDueReminders(ctx.db, config, config.teamTimeZone, morning),
        runDueReminders(other.db, config, config.teamTimeZone, morning),
        runDueReminders(ctx.db, config, config.teamTimeZone, morning),
      ]);
      expect(runs.reduce((a, b) => a + b)).toBe(2);
    } finally {
      await other.close();
    }
    expect(
      await runDueReminders(
        ctx.db,
        config,
        config.teamTimeZone,
        new Date(morning.getTime() + 3_600_000),
      ),
    ).toBe(0);

    const [toDana, ...more] = await emailsTo(dana);
    expect(more).toEqual([]);
    expect(toDana!.subject).toBe("2 leads due today (1 overdue)");
    expect(toDana!.text_body).toContain(
      `Ada Quinn: Call back, due 2026-12-01 (overdue) — ${config.siteUrl}/team#inbox/lead/${overdue}`,
    );
    expect(toDana!.text_body).toContain("Bo Lind: Call back, due 2026-12-03");
    expect(toDana!.text_body).not.toContain("Later Lead");
    expect(toDana!.text_body).not.toContain("Lost Lead");
    expect(toDana!.text_body).toContain(`${config.siteUrl}/team#inbox?owner=${dana}`);
    expect((await emailsTo(eli)).map((e) => e.subject)).toEqual(["1 lead due today (1 overdue)"]);
    expect(await emailsTo(idle)).toEqual([]);

    // The next day is another day's email.
    expect(
      await runDueReminders(
        ctx.db,
        config,
        config.teamTimeZone,
        new Date(morning.getTime() + 86_400_000),
      ),
    ).toBe(2);
  });
});
