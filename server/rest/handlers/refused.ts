// What a relation answers to what no role may do with it (a lead table read, changed or deleted;
// a view of the team's or the statistics written; the lead states read): the database's refusal
// of a privilege no role holds. Only a name that is no relation exposed here is PostgREST's 404
// (Response.hs: TableNotFound is the schema cache's answer, not a privilege's). And what each
// relation takes (OPTIONS), whoever asks.
import type { FastifyInstance } from "fastify";
import { relationMethods } from "../methods.ts";
import {
  assertProfile,
  claimsOf,
  denied,
  queryParams,
  relationNotFound,
  roleOf,
  type TableRequest,
} from "../request.ts";

/** Refuses the request as the database refuses a privilege no role holds (or 404s a non-relation). */
export async function refuse(app: FastifyInstance, request: TableRequest): Promise<never> {
  const role = await roleOf(app, request);
  const name = request.params.table;
  assertProfile(request);
  if (!relationMethods(name)) throw relationNotFound(name);
  queryParams(request);
  throw denied(name, role);
}

export default async function refused(app: FastifyInstance) {
  // What a relation takes, whoever asks (the gateway's key and a token are still checked).
  app.options<{ Params: { table: string }; Querystring: Record<string, string | undefined> }>(
    "/:table",
    async (request, reply) => {
      await claimsOf(app, request);
      assertProfile(request);
      const allow = relationMethods(request.params.table);
      if (!allow) throw relationNotFound(request.params.table);
      return reply.header("allow", allow).send();
    },
  );

  // Changing or deleting leads: no role has such a privilege here.
  app.route<{ Params: { table: string }; Querystring: Record<string, string | undefined> }>({
    method: ["PATCH", "PUT", "DELETE"],
    url: "/:table",
    handler: (request) => refuse(app, request),
  });
}
