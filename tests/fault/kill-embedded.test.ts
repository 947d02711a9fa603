// kill -9 of the embedded server under insert load, then a restart on the same data: every row
// whose insert was acknowledged (201) is there.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openPglite } from "../../server/db/pglite.ts";
import { tempDir } from "../support/app.ts";
import { insertLoad } from "../support/insert-load.ts";
import { startServer } from "../support/server-process.ts";

describe("embedded server killed under load", () => {
  it("keeps every acknowledged row across kill -9 and a restart", async () => {
    const dataDir = tempDir();
    const env = {
      DATA_DIR: dataDir,
      SITE_DIR: path.join(dataDir, "none"),
      TRUST_PROXY: "loopback",
    };
    const server = await startServer(env);
    const load = insertLoad([server.url], server.anonKey, { tag: "killed" });
    while (load.acknowledged.length < 100) {
      if (server.child.exitCode !== null) throw new Error("server exited under load");
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await server.stop("SIGKILL")).toBe(null);
    await load.stop();
    const acknowledged = [...load.acknowledged];

    // The restarted server opens the same database (recovering it) and serves.
    const again = await startServer(env);
    const after = insertLoad([again.url], again.anonKey, { tag: "after", max: 5, workers: 1 });
    await after.done;
    expect(after.acknowledged).toHaveLength(5);
    expect(await again.stop("SIGTERM")).toBe(0);

    const db = await openPglite(path.join(dataDir, "pglite"));
    const rows = await db.query<{ email: string }>(
      "SELECT email FROM public.newsletter_subscribers",
    );
    await db.close();
    const stored = new Set(rows.map((r) => r.email));
    expect(acknowledged.filter((e) => !stored.has(e))).toEqual([]);
    expect(load.statuses.filter((s) => s !== 201)).toEqual([]);
  });
});
