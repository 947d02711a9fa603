// The team's time zone (public.team_settings, migration 0055): the times in the team's emails and
// the day of each member's due-leads email. A lead's notification is composed on the form's
// request, so each instance keeps the zone in memory (current(), no database work per lead) and
// reads it again every REFRESH_MS: a change an admin makes on one instance reaches the others
// within that time. The row is made from TEAM_TIME_ZONE the first time a server starts (load());
// the reads after it only read (refresh()).
import type { Database, Queryable } from "../db/database.ts";

/** How often an instance reads the team's zone again. */
export const REFRESH_MS = 30_000;

export class TeamTimeZone {
  private zone: string;
  private readonly db: Database;

  constructor(db: Database, initial: string) {
    this.db = db;
    this.zone = initial;
  }

  /** The zone as this instance last read it. */
  current(): string {
    return this.zone;
  }

  /**
   * Makes the team's row from the configured zone if there is none, and reads the zone. The read
   * is a statement of its own: an instance whose insert met another's, starting at the same time,
   * waits for that one to commit and inserts nothing, and only a later statement sees its row.
   */
  async load(): Promise<string> {
    await this.db.query(
      `INSERT INTO public.team_settings (time_zone) VALUES ($1) ON CONFLICT (only_row) DO NOTHING`,
      [this.zone],
    );
    return this.refresh();
  }

  /** Reads the team's zone again (its row exists once load() ran on any instance). */
  async refresh(): Promise<string> {
    const [row] = await this.db.query<{ time_zone: string }>(
      "SELECT time_zone FROM public.team_settings /* whole table: one row */",
    );
    if (row) this.zone = row.time_zone;
    return this.zone;
  }

  /** Sets the team's zone (in the caller's transaction); this instance uses it at once. */
  async change(q: Queryable, zone: string): Promise<{ from: string }> {
    const [row] = await q.query<{ from: string }>(
      `UPDATE public.team_settings AS s SET time_zone = $1, updated_at = now()
       FROM (SELECT time_zone FROM public.team_settings /* whole table: one row */ FOR UPDATE) AS before
       RETURNING before.time_zone AS from`,
      [zone],
    );
    this.zone = zone;
    return { from: row!.from };
  }
}
