// The process: read the configuration, build the app, listen, and shut down gracefully.
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/open.ts";
import { flushLog } from "./platform/flush-log.ts";

const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  const startedAt = performance.now();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  // The database starts (PGlite boots on its own thread) while the rest of the server loads.
  const db = openDatabase(config);
  db.catch(() => {}); // reported when awaited below
  const { buildApp } = await import("./app.ts");
  const app = await buildApp({ config, db, ownsDb: true });
  app.server.keepAliveTimeout = 72_000; // longer than common load-balancer idle timeouts
  app.server.headersTimeout = 75_000;
  app.server.requestTimeout = 30_000;
  await app.listen({ port: config.port, host: config.host });

  app.log.info(
    {
      node: process.version,
      database: app.db.kind,
      dataDir: config.dataDir,
      siteUrl: config.siteUrl,
      startMs: Math.round(performance.now() - startedAt),
    },
    "Revwise is ready",
  );
  app.log.info(`anon key: ${app.keys.anonKey}`);

  let closing = false;
  const exit = (code: number) => void flushLog(app.log).then(() => process.exit(code));
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      app.log.error("shutdown took too long; exiting");
      exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    app.close().then(
      () => exit(0),
      (err: unknown) => {
        app.log.error({ err }, "shutdown failed");
        exit(1);
      },
    );
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((err: unknown) => {
  console.error(`Revwise could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
