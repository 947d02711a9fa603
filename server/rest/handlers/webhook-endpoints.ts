// POST, PATCH and DELETE /rest/v1/webhook_endpoints: admins add, change and remove the endpoints
// lead events are sent to. Their bodies and filters are read as PostgREST reads them and refused
// in its words: an unknown
// column, a URL that may not receive events (or, unless the operator allows it, one on a host
// that is not public), a malformed secret, an UPDATE or DELETE without a
// filter on the id (Supabase's safeupdate refuses those: a typo must not change every endpoint).
import type { FastifyInstance } from "fastify";
import { recordAudit } from "../../audit/audit-log.ts";
import {
  endpointUrl,
  isEndpointSecret,
  newEndpointSecret,
  PUBLIC_URL_RULE,
  SECRET_RULE,
  URL_RULE,
} from "../../security/endpoint-rules.ts";
import {
  changeEndpoint,
  ENV_ENDPOINT_ID,
  removeEndpoint,
  type EndpointChange,
} from "../../webhooks/endpoints.ts";
import { namesPrivateHost } from "../../webhooks/public-address.ts";
import { PostgrestError } from "../errors.ts";
import { checkViolation, idFilter, notNullViolation, rowOf } from "../one-row.ts";
import { parsePrefer } from "../prefer.ts";
import { asRequested, claimsOf } from "../request.ts";
import { actorOf, assertTeamAdmin } from "../team-access.ts";

/** What the audit log keeps of an endpoint: its id and URL (never its secret). */
const endpointTraits = (row: { id: string; url: string }) => ({
  endpoint_id: row.id,
  endpoint_url: row.url,
});

const TABLE = "webhook_endpoints";
const MAX_DESCRIPTION = 200;

const violates = (column: string, rule: string) => checkViolation(TABLE, column, rule);

/** What an admin's endpoint may be: with `privateAllowed` false, on a public host only. */
type UrlPolicy = { privateAllowed: boolean };

function url(value: unknown, policy: UrlPolicy): string {
  const stored = typeof value === "string" ? endpointUrl(value) : undefined;
  if (!stored) throw violates("url", policy.privateAllowed ? URL_RULE : PUBLIC_URL_RULE);
  if (!policy.privateAllowed && namesPrivateHost(new URL(stored)))
    throw violates("url", PUBLIC_URL_RULE);
  return stored;
}

function description(value: unknown): string {
  if (typeof value !== "string" || value.length > MAX_DESCRIPTION)
    throw violates("description", `text of at most ${MAX_DESCRIPTION} characters`);
  return value;
}

/** A new endpoint: its URL, a description, and its secret (made here when not given). */
function readEndpointInsert(body: unknown, policy: UrlPolicy) {
  const row = rowOf(body, ["url", "description", "secret"], TABLE);
  if (row.url === undefined || row.url === null) throw notNullViolation(TABLE, "url");
  const secret = row.secret ?? newEndpointSecret();
  if (typeof secret !== "string" || !isEndpointSecret(secret))
    throw violates("secret", SECRET_RULE);
  return {
    url: url(row.url, policy),
    description: row.description === undefined ? "" : description(row.description),
    secret,
  };
}

/** The columns a PATCH changes: URL, description, whether it is enabled. */
function readEndpointChange(body: unknown, policy: UrlPolicy): EndpointChange {
  const row = rowOf(body, ["url", "description", "enabled"], TABLE);
  if (row.enabled !== undefined && typeof row.enabled !== "boolean")
    throw new PostgrestError(
      400,
      "22P02",
      `invalid input syntax for type boolean: "${String(row.enabled)}"`,
    );
  return {
    ...(row.url !== undefined && { url: url(row.url, policy) }),
    ...(row.description !== undefined && { description: description(row.description) }),
    ...(row.enabled !== undefined && { enabled: row.enabled as boolean }),
  };
}

export default async function webhookEndpoints(app: FastifyInstance) {
  const urlPolicy = { privateAllowed: app.config.webhookAllowPrivateAddresses };
  app.post(`/${TABLE}`, async (request, reply) => {
    const claims = await claimsOf(app, request);
    const admin = await assertTeamAdmin(app.db, claims, `table ${TABLE}`);
    const prefer = parsePrefer(request.headers.prefer);
    const row = await app.webhooks.add(
      { ...readEndpointInsert(request.body, urlPolicy), by: admin.userId },
      (tx, added) =>
        recordAudit(tx, request, actorOf(admin), "webhook_endpoint_added", endpointTraits(added)),
    );
    await app.webhooks.refresh();
    reply.code(201);
    return prefer.return === "representation" ? asRequested(request, reply, [row]) : reply.send();
  });

  app.route<{ Querystring: Record<string, string | undefined> }>({
    method: ["PATCH", "DELETE"],
    url: `/${TABLE}`,
    async handler(request, reply) {
      const claims = await claimsOf(app, request);
      const admin = await assertTeamAdmin(app.db, claims, `table ${TABLE}`);
      const verb = request.method === "PATCH" ? "UPDATE" : "DELETE";
      const id = idFilter(request.query, verb, "endpoint");
      if (id === ENV_ENDPOINT_ID)
        throw new PostgrestError(
          400,
          "23514",
          "This endpoint is LEAD_WEBHOOK_URL: it is changed in the server's configuration",
        );
      const change = verb === "UPDATE" ? readEndpointChange(request.body, urlPolicy) : undefined;
      // The change and its audit entry in one transaction; nothing is logged for no such endpoint.
      const row = await app.db.transaction(async (tx) => {
        const done = change ? await changeEndpoint(tx, id, change) : await removeEndpoint(tx, id);
        if (done)
          await recordAudit(
            tx,
            request,
            actorOf(admin),
            change ? "webhook_endpoint_changed" : "webhook_endpoint_removed",
            { ...endpointTraits(done), ...(change && { changed: Object.keys(change) }) },
          );
        return done;
      });
      await app.webhooks.refresh();
      if (parsePrefer(request.headers.prefer).return === "representation")
        return reply.code(200).send(asRequested(request, reply, row ? [row] : []));
      return reply.code(204).send();
    },
  });
}
