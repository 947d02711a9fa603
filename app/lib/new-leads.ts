// What arrives while the workspace is open, read again every few seconds while the page is shown
// (the server is asked nothing while it is hidden): the leads the inbox's filters select that
// arrived since the list was read (its "N new leads" bar), and how many leads are still new (the
// Inbox tab's and the page title's count).
import { useEffect, useState } from "react";
import { getSupabase } from "./supabase.ts";
import { filterLeads, rowsOf, type LeadFilters, type Query } from "./team-data.ts";

/** How often the workspace asks what arrived. */
export const NEW_LEADS_EVERY_MS = 10_000;

/**
 * Calls `read` now and every NEW_LEADS_EVERY_MS while the page is visible; its latest answer for
 * `key`. A new key counts from 0 at once: an answer about what was read before (a bar offering
 * leads just shown) is not shown while the next read is under way.
 */
function usePolled(read: () => Promise<number>, key: string): number {
  const [latest, setLatest] = useState({ key, value: 0 });
  useEffect(() => {
    let live = true;
    const run = () => {
      if (document.visibilityState === "visible")
        read().then(
          (value) => live && setLatest({ key, value }),
          () => undefined, // a failed read keeps the last count; the next one tries again
        );
    };
    run();
    const timer = setInterval(run, NEW_LEADS_EVERY_MS);
    document.addEventListener("visibilitychange", run);
    return () => {
      live = false;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", run);
    };
    // `read` is a new function each render; `key` says when what it reads changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return latest.key === key ? latest.value : 0;
}

/** How many leads `filter` selects (an estimate past a thousand). */
async function countLeads(filter: (q: Query) => Query): Promise<number> {
  const supabase = await getSupabase();
  return rowsOf(
    await filter(supabase.from("leads").select("id", { count: "estimated", head: true })),
  ).count;
}

/** The leads the filters select that arrived after `since` (an ISO time). */
export const useArrivals = (filters: LeadFilters, since: string) =>
  usePolled(
    () => countLeads((q) => filterLeads(q, filters).gt("created_at", since)),
    JSON.stringify([filters, since]),
  );

/** The leads nobody has worked on yet (status New). */
export const useNewLeadCount = () =>
  usePolled(() => countLeads((q) => q.eq("status", "new")), "new");
