// The process: read the configuration, build the app, listen, and shut down gracefully.
import { ConfigError, loadConfig } from "./config.ts";
import { startDatabase } from "./db/open.ts";

/** The longest shutdown may take once the drain is over; past it the process exits with 1. */
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

  // The database starts first (PGlite boots on its own thread), then the rest of the server
  // loads while it boots (db/open.ts, startDatabase).
  const warnings: string[] = [];
  const { ready: db } = await startDatabase(config, (message) => warnings.push(message));
  db.catch(() => {}); // reported when awaited below
  const { buildApp } = await import("./app.ts");
  const app = await buildApp({ config, db, ownsDb: true });
  for (const warning of warnings) app.log.warn(warning);
  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info(`anon key: ${app.keys.anonKey}`);
  if (config.devMailbox) app.log.info(`emails are shown at ${address}/_dev/mailbox`);

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

  let closing = false;
  // The log lines still gathered are written when the process exits (platform/log-lines.ts).
  const exit = (code: number) => process.exit(code);
  // Readiness turns 503 first and requests are still served for SHUTDOWN_DRAIN_MS, so that a
  // load balancer stops sending new ones; then the listener closes, requests in flight finish,
  // every connection closes (idle ones at once, busy ones after their response), and every
  // onClose hook runs (database, mail worker, Redis, the data dir's lock).
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.readiness.drain();
    app.log.info({ signal, drainMs: config.shutdownDrainMs }, "draining");
    const force = setTimeout(() => {
      app.log.error("shutdown took too long; exiting");
      exit(1);
    }, config.shutdownDrainMs + SHUTDOWN_GRACE_MS);
    force.unref();
    setTimeout(() => {
      app.log.info("closing");
      app.close().then(
        () => {
          app.log.info("stopped");
          exit(0);
        },
        (err: unknown) => {
          app.log.error({ err }, "shutdown failed");
          exit(1);
        },
      );
    }, config.shutdownDrainMs);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((err: unknown) => {
  console.error(`Revwise could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
