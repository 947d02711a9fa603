// The gauges of one queue's waiting rows (metrics/metrics.ts), read from its table at a scrape.
import type { Database } from "../db/database.ts";
import { queuedItems, queueOldestAge } from "../metrics/metrics.ts";
import type { Claims } from "./claims.ts";

export async function readBacklog<R>(db: Database, claims: Claims<R>) {
  const { queue } = claims;
  const { due, scheduled, sending, oldest_seconds } = await claims.backlog(db);
  queuedItems.set({ queue, state: "due" }, due);
  queuedItems.set({ queue, state: "scheduled" }, scheduled);
  queuedItems.set({ queue, state: "sending" }, sending);
  queueOldestAge.set({ queue }, oldest_seconds);
}
