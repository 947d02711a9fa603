// The /rest/v1 scope: PostgREST's wire protocol. Anonymous inserts into the lead tables
// (handlers/lead-inserts.ts), the team's reads of its views (handlers/reads.ts) and writes
// (handlers/lead-states.ts, handlers/lead-notes.ts, handlers/webhook-endpoints.ts,
// handlers/newsletter-issues.ts, handlers/team-accounts.ts, handlers/team-settings.ts), page statistics
// (handlers/page-stats.ts), the team's functions (handlers/functions.ts), and what no role may do
// (handlers/refused.ts), each answered as PostgREST answers.
import type { FastifyInstance } from "fastify";
import { noStoreUnlessSet } from "../http/no-store.ts";
import { restErrorHandler, restNotFound } from "./errors.ts";
import functions from "./handlers/functions.ts";
import leadInserts from "./handlers/lead-inserts.ts";
import leadNotes from "./handlers/lead-notes.ts";
import leadStates from "./handlers/lead-states.ts";
import newsletterIssues from "./handlers/newsletter-issues.ts";
import pageStats from "./handlers/page-stats.ts";
import reads from "./handlers/reads.ts";
import refused from "./handlers/refused.ts";
import teamAccounts from "./handlers/team-accounts.ts";
import teamSettings from "./handlers/team-settings.ts";
import webhookEndpoints from "./handlers/webhook-endpoints.ts";

export default async function restRoutes(app: FastifyInstance) {
  app.setErrorHandler(restErrorHandler);
  app.setNotFoundHandler(restNotFound);
  noStoreUnlessSet(app);
  for (const routes of [
    functions,
    webhookEndpoints,
    newsletterIssues,
    teamAccounts,
    teamSettings,
    pageStats,
    leadStates,
    leadNotes,
    leadInserts,
    reads,
    refused,
  ])
    await app.register(routes);
  app.all("/*", restNotFound);
}
