// One test server for a suite (what fastify/demo's test/helper.ts `build(t)` is to its tests): a
// real SMTP server that keeps every message, then the real app on the suite's database, listening
// on loopback and sending its email there, with a supabase-js client for it (`server.client()`).
// Called in a describe block: it starts in beforeAll and closes in afterAll (the app, then SMTP),
// before the suite's own database closes. Each database engine's suite gets its own.
import { afterAll, beforeAll } from "vitest";
import type { AppOptions } from "../../server/app.ts";
import type { Database } from "../../server/db/database.ts";
import { startApiServer, type ApiServer } from "./api-server.ts";
import { startSmtp, type TestSmtp } from "./smtp.ts";

export type TestServerOptions = { env?: Record<string, string> } & Pick<
  AppOptions,
  "mail" | "captcha" | "webhooks"
>;

export function useTestServer(
  db: () => Database,
  opts: TestServerOptions = {},
): { server: ApiServer; smtp: TestSmtp } {
  let server: ApiServer | undefined;
  let smtp: TestSmtp | undefined;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startApiServer(db(), { ...opts, env: { SMTP_URL: smtp.url, ...opts.env } });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.stop();
  });
  return { server: once(() => server, "server"), smtp: once(() => smtp, "smtp") };
}

/** Stands for the object the suite starts in beforeAll: its properties are read from it then. */
function once<T extends object>(started: () => T | undefined, name: string): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = started();
      if (!target)
        throw new Error(`the test ${name} starts in beforeAll: use it in tests and hooks`);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
