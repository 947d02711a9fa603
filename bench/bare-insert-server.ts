// The baseline of `npm run bench:api`: a bare Fastify route doing the same insert as
// POST /rest/v1/newsletter_subscribers, on the same database, with nothing else (no key check,
// validation, rate limit, headers or logging). Run in its own process.
import Fastify from "fastify";
import { openDatabase } from "../server/db/open.ts";

const db = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATA_DIR ?? "./data",
});
const app = Fastify({ logger: false });
app.post<{ Body: { email: string; source?: object } }>("/insert", async (request, reply) => {
  await db.query("INSERT INTO public.newsletter_subscribers (email, source) VALUES ($1, $2)", [
    request.body.email,
    JSON.stringify(request.body.source ?? {}),
  ]);
  return reply.code(201).send();
});
await app.listen({ port: 0, host: "127.0.0.1" });
console.log(`listening ${(app.server.address() as { port: number }).port}`);
