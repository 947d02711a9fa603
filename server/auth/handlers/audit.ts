// GET /admin/audit: the audit log for the service-role key, newest first, a page at a time with
// GoTrue's pagination headers, filtered as GoTrue filters it: `query=author:TEXT` (the actor's
// address, number or name), `action:TEXT` or `type:TEXT` (the log type), each matching part of
// the field in any case.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { FILTER_SCOPES, findAuditEntries, type AuditFilter } from "../../audit/audit-log.ts";
import { authenticateAdmin } from "../authenticate.ts";
import type { AuthContext } from "../context.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { paginationLinks, readPage } from "../pagination.ts";
import { queryParam } from "../request.ts";

/** `query=SCOPE:TEXT`, or GoTrue's 400 for a scope it does not know (or no colon). */
function readFilter(request: FastifyRequest): AuditFilter | undefined {
  const query = queryParam(request, "query");
  if (!query) return undefined;
  const colon = query.indexOf(":");
  const scope = colon < 0 ? query : query.slice(0, colon);
  if (colon < 0 || !Object.hasOwn(FILTER_SCOPES, scope))
    throw new AuthError(400, ErrorCode.validation_failed, `Invalid query scope: ${query}`);
  return { scope: scope as AuditFilter["scope"], text: query.slice(colon + 1) };
}

export default async function audit(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  app.get(
    "/admin/audit",
    {
      onRequest: async (request) => {
        await authenticateAdmin(ctx.tokens, request);
      },
    },
    async (request, reply) => {
      const { page, perPage } = readPage(request);
      const filter = readFilter(request);
      const { entries, total } = await findAuditEntries(app.db, filter, { page, perPage });
      reply.header("x-total-count", String(total));
      reply.header("link", paginationLinks(request, page, perPage, total));
      return entries;
    },
  );
}
