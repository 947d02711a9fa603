// The team's time zone in the workspace (`team_settings`): every member reads it; the team's
// admins on aal2 change it (logged under the admin, from and to); the team's emails say times in
// it from then on, on this instance at once and on another at its next read. Members, visitors
// and zones the runtime does not know are refused, and nothing changes.
import type { SupabaseClient } from "@supabase/supabase-js";
import { beforeAll, expect, it } from "vitest";
import { FUNCTIONS } from "../../common/functions.ts";
import { describeAuthSuiteEachDatabase } from "../../tests/support/auth-suite.ts";
import { solvedPayload } from "../../tests/support/captcha.ts";
import { teamMember } from "../../tests/support/team.ts";
import { TeamTimeZone } from "../team/time-zone.ts";
import { openAgain } from "../../tests/support/databases.ts";

describeAuthSuiteEachDatabase("rest: the team's time zone", (suite) => {
  const { server, client, ctx } = suite;
  let admin: SupabaseClient;
  let member: SupabaseClient;

  beforeAll(async () => {
    ({ supabase: admin } = await teamMember(suite, "zone-admin", { aal2: true, role: "admin" }));
    ({ supabase: member } = await teamMember(suite, "zone-member", { aal2: true }));
  });

  const zone = async (as: SupabaseClient) =>
    (await as.from("team_settings").select("time_zone")).data;
  const change = (as: SupabaseClient, body: Record<string, unknown>) =>
    as.from("team_settings").update(body);

  /** The notification of a contact message sent now, as queued for the team. */
  async function notification() {
    const message = `Zone check ${crypto.randomUUID()}`;
    const { error } = await client().functions.invoke(FUNCTIONS.contact, {
      body: {
        name: "Zoe Zone",
        email: "zoe@zones.example",
        phone: "+1 206 555 0100",
        message,
        captcha: await solvedPayload(server.url),
      },
    });
    expect(error).toBeNull();
    const [row] = await ctx.db.query<{ text_body: string }>(
      "SELECT text_body FROM mail.outbox WHERE kind = 'notify-contact-message' AND text_body LIKE $1",
      [`%${message}%`],
    );
    return row!.text_body;
  }

  it("is read by every member; only an admin changes it, to a zone the runtime knows", async () => {
    expect(await zone(member)).toEqual([{ time_zone: "America/Los_Angeles" }]);
    expect(await notification()).toMatch(/Received: .* P[SD]T/);

    const refused = await change(member, { time_zone: "Europe/Berlin" });
    expect([refused.status, refused.error?.code]).toEqual([403, "42501"]);
    expect((await change(client(), { time_zone: "Europe/Berlin" })).status).toBe(401);
    const unknown = await change(admin, { time_zone: "Mars/Olympus_Mons" });
    expect([unknown.status, unknown.error?.code, unknown.error?.details]).toEqual([
      400,
      "23514",
      "Please choose a time zone from the list",
    ]);
    const extra = await change(admin, { time_zone: "Europe/Berlin", owner: "me" });
    expect([extra.status, extra.error?.code]).toEqual([400, "PGRST204"]);
    const filtered = await admin
      .from("team_settings")
      .update({ time_zone: "Europe/Berlin" })
      .eq("time_zone", "Asia/Tokyo");
    expect([filtered.status, filtered.error?.code]).toEqual([400, "PGRST100"]);
    expect(await zone(admin)).toEqual([{ time_zone: "America/Los_Angeles" }]);

    expect((await change(admin, { time_zone: "Europe/Berlin" })).status).toBe(204);
    expect(await zone(member)).toEqual([{ time_zone: "Europe/Berlin" }]);
    expect(await notification()).toMatch(/Received: .* GMT\+1|Received: .* CES?T/);
    const [entry] = await ctx.db.query<{ payload: { traits: Record<string, unknown> } }>(
      `SELECT payload FROM auth.audit_log_entries
       WHERE payload->>'action' = 'team_time_zone_changed' ORDER BY created_at DESC LIMIT 1`,
    );
    expect(entry!.payload.traits).toMatchObject({
      from: "America/Los_Angeles",
      to: "Europe/Berlin",
    });

    // Another instance reads the change at its next read; a restart keeps it.
    const other = await openAgain(ctx);
    try {
      const elsewhere = new TeamTimeZone(other.db, "America/Los_Angeles");
      expect(await elsewhere.refresh()).toBe("Europe/Berlin");
      const restarted = new TeamTimeZone(other.db, "America/Los_Angeles");
      expect(await restarted.load()).toBe("Europe/Berlin");
      expect(elsewhere.current()).toBe("Europe/Berlin");
    } finally {
      await other.close();
    }
    expect((await change(admin, { time_zone: "America/Los_Angeles" })).status).toBe(204);
  });

  // Only PostgreSQL has two connections to race; PGlite serves one statement at a time.
  if (ctx.kind === "postgres")
    it("starts two instances at once on a new database: the one whose insert waited reads the other's row", async () => {
      const before = await ctx.db.query<{ time_zone: string }>(
        "SELECT time_zone FROM public.team_settings",
      );
      const other = await openAgain(ctx);
      try {
        await ctx.db.query("DELETE FROM public.team_settings");
        let started: Promise<string> | undefined;
        await ctx.db.transaction(async (tx) => {
          await tx.query("INSERT INTO public.team_settings (time_zone) VALUES ('Europe/Paris')");
          // The second instance's insert waits for this one's transaction to end.
          started = new TeamTimeZone(other.db, "Asia/Tokyo").load();
          await expect
            .poll(async () => {
              const [waiting] = await other.db.query<{ n: number }>(
                `SELECT count(*)::int AS n FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock'`,
              );
              return waiting!.n;
            })
            .toBe(1);
        });
        expect(await started).toBe("Europe/Paris");
      } finally {
        await other.close();
        await ctx.db.query("UPDATE public.team_settings SET time_zone = $1", [
          before[0]!.time_zone,
        ]);
      }
    });
});
