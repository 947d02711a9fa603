// The server's shared services, decorated on the instance for every plugin.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { Keys } from "./security/keys.ts";
import { TokenService } from "./security/tokens.ts";

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    db: Database;
    keys: Keys;
    /** Mints and verifies every JWT (security/tokens.ts). */
    tokens: TokenService;
  }
}

type Services = { config: Config; db: Database; keys: Keys; ownsDb: boolean };

export default fp(
  async function services(app: FastifyInstance, opts: Services) {
    app.decorate("config", opts.config);
    app.decorate("db", opts.db);
    app.decorate("keys", opts.keys);
    app.decorate(
      "tokens",
      new TokenService({
        secret: opts.keys.jwtSecret,
        keys: opts.config.jwtKeys,
        issuer: `${opts.config.siteUrl}/auth/v1`,
        expSeconds: opts.config.jwtExpSeconds,
      }),
    );
    if (opts.ownsDb) app.addHook("onClose", async () => opts.db.close());
  },
  { name: "services" },
);
