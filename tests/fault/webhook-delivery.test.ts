// The built server delivering webhooks on PostgreSQL, killed with SIGKILL while the receiver has
// the event and has not answered: nothing is lost, and the receiver accepts the event once, from
// the next instance, once the dead one's lease has run out.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/app.ts";
import { waitUntil } from "../support/outbox.ts";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "../support/postgres.ts";
import { sharedDeploymentEnv, startServer } from "../support/server-process.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import type { Database } from "../../server/db/database.ts";
import { migrate } from "../../server/db/migrate.ts";
import { openPostgres } from "../../server/db/postgres.ts";

type Delivery = { id: string; attempts: number; claim_token: string | null; delivered_at: Date };

describe.skipIf(!(await postgresAvailable()))("webhook delivery by the server process", () => {
  let testDb: TestDatabase;
  let db: Database;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await openPostgres(testDb.url, 2);
    await migrate(db);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
    await db?.close();
    await testDb?.drop();
  });

  function startHookServer() {
    const dataDir = tempDir();
    return startServer({
      ...sharedDeploymentEnv(testDb.url),
      ...receiver.env,
      LEAD_WEBHOOK_LEASE_SECONDS: "2",
      DATA_DIR: dataDir,
      SITE_DIR: path.join(dataDir, "no-site"),
    });
  }
  const deliveries = () =>
    db.query<Delivery>(
      "SELECT id, attempts, claim_token, delivered_at FROM public.webhook_deliveries",
    );

  it("after kill -9 mid-request loses nothing, and the receiver accepts the event once", async () => {
    receiver.answer(() => ({ status: 204, delayMs: 10_000 })); // the first request hangs
    const first = await startHookServer();
    const res = await fetch(`${first.url}/rest/v1/demo_requests`, {
      method: "POST",
      headers: { apikey: first.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ email: "killed@lumen-freight.example" }),
    });
    expect(res.status).toBe(201);
    await waitUntil(async () => receiver.pending === 1, 10_000);
    await first.stop("SIGKILL");
    const [held] = await deliveries();
    expect(held).toMatchObject({ attempts: 1, delivered_at: null });
    expect(held!.claim_token).not.toBeNull();

    receiver.answer(undefined);
    const next = await startHookServer();
    await waitUntil(async () => (await deliveries())[0]!.delivered_at !== null, 15_000);
    expect(await next.stop("SIGTERM")).toBe(0);
    const [done] = await deliveries();
    expect(done).toMatchObject({ id: held!.id, attempts: 2, claim_token: null });
    expect(receiver.accepted(held!.id)).toHaveLength(1);
  });
});
