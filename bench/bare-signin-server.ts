// The second baseline of `npm run bench:auth`: the least a password sign-in can do on the same
// database: look the user up, check the argon2id hash, insert the session and its refresh token,
// sign an HS256 token. No key check, rate limit, headers, logging or GoTrue response. Own process.
import crypto from "node:crypto";
import Fastify from "fastify";
import { hashPassword, verifyPassword } from "../server/auth/passwords.ts";
import { migrate } from "../server/db/migrate.ts";
import { openDatabase } from "../server/db/open.ts";
import { signJwt } from "../server/security/tokens.ts";

const [email = "bare@bench.example", password = ""] = process.argv.slice(2);
const db = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATA_DIR ?? "./data",
});
await migrate(db);
await db.query(
  "INSERT INTO auth.users (email, encrypted_password) VALUES ($1, $2) ON CONFLICT DO NOTHING",
  [email, await hashPassword(password)],
);
const secret = crypto.randomBytes(32);

const app = Fastify({ logger: false });
app.post<{ Body: { email: string; password: string } }>("/signin", async (request, reply) => {
  const [user] = await db.query<{ id: string; encrypted_password: string }>(
    "SELECT * FROM auth.users WHERE lower(email) = lower($1)",
    [request.body.email],
  );
  if (!user || !(await verifyPassword(user.encrypted_password, request.body.password)))
    return reply.code(400).send({ error: "invalid_grant" });
  const [session] = await db.query<{ id: string }>(
    `WITH s AS (INSERT INTO auth.sessions (user_id) VALUES ($1) RETURNING id, user_id),
     r AS (INSERT INTO auth.refresh_tokens (id, token_hash, session_id, user_id) SELECT $2, $3, s.id, s.user_id FROM s)
     SELECT id FROM s`,
    [user.id, crypto.randomUUID(), crypto.randomBytes(32).toString("hex")],
  );
  return {
    access_token: signJwt({ sub: user.id, session_id: session!.id }, secret),
    refresh_token: crypto.randomBytes(32).toString("base64url"),
  };
});
await app.listen({ port: 0, host: "127.0.0.1" });
console.log(`listening ${(app.server.address() as { port: number }).port}`);
