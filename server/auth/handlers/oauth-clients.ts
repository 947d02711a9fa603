// The OAuth server's clients: the admin API (/admin/oauth/clients: create, list, get, update,
// delete, regenerate the secret) and dynamic registration (POST /oauth/clients/register, RFC 7591,
// when GOTRUE_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION is on), as GoTrue answers them.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isUuid } from "../../platform/uuid.ts";
import { authenticateAdmin } from "../authenticate.ts";
import type { AuthContext } from "../context.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import {
  createClient,
  deleteClient,
  findClient,
  listClients,
  regenerateSecret,
  updateClient,
  type OAuthClientRow,
} from "../models/oauth-clients.ts";
import { requireOAuthServer } from "../oauth-server/enabled.ts";
import { readRegistration, readUpdate } from "../oauth-server/registration.ts";
import { readBody } from "../request.ts";

/** GoTrue's OAuthServerClientResponse; the secret only when just made. */
function clientJson(client: OAuthClientRow, secret?: string) {
  return {
    client_id: client.id,
    ...(secret ? { client_secret: secret } : {}),
    client_type: client.client_type,
    redirect_uris: client.redirect_uris,
    token_endpoint_auth_method: client.token_endpoint_auth_method,
    grant_types: client.grant_types,
    response_types: ["code"],
    ...(client.client_name ? { client_name: client.client_name } : {}),
    ...(client.client_uri ? { client_uri: client.client_uri } : {}),
    ...(client.logo_uri ? { logo_uri: client.logo_uri } : {}),
    registration_type: client.registration_type,
    created_at: client.created_at,
    updated_at: client.updated_at,
  };
}

type ClientParams = { Params: { clientId: string } };

export default async function oauthClients(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db } = app;
  const enabled = requireOAuthServer(app);
  const admin = async (request: FastifyRequest) => {
    await authenticateAdmin(ctx.tokens, request);
    await enabled();
  };

  /** The client named in the path (GoTrue's LoadOAuthServerClient). */
  async function pathClient(id: string): Promise<OAuthClientRow> {
    if (!isUuid(id))
      throw new AuthError(400, ErrorCode.validation_failed, "invalid client_id format");
    const client = await findClient(db, id);
    if (!client)
      throw new AuthError(404, ErrorCode.oauth_client_not_found, "OAuth client not found");
    return client;
  }

  app.post("/admin/oauth/clients", { onRequest: admin }, async (request, reply) => {
    const { client, secret } = await createClient(
      db,
      readRegistration(readBody(request), "manual"),
    );
    return reply.code(201).send(clientJson(client, secret));
  });

  app.get("/admin/oauth/clients", { onRequest: admin }, async () => ({
    clients: (await listClients(db)).map((client) => clientJson(client)),
  }));

  app.get<ClientParams>("/admin/oauth/clients/:clientId", { onRequest: admin }, async (request) =>
    clientJson(await pathClient(request.params.clientId)),
  );

  app.put<ClientParams>("/admin/oauth/clients/:clientId", { onRequest: admin }, async (request) => {
    const client = await pathClient(request.params.clientId);
    return clientJson(
      await updateClient(db, client.id, readUpdate(readBody(request), client.client_type)),
    );
  });

  app.delete<ClientParams>(
    "/admin/oauth/clients/:clientId",
    { onRequest: admin },
    async (request, reply) => {
      const client = await pathClient(request.params.clientId);
      await db.transaction((tx) => deleteClient(tx, client.id));
      return reply.code(204).send();
    },
  );

  app.post<ClientParams>(
    "/admin/oauth/clients/:clientId/regenerate_secret",
    { onRequest: admin },
    async (request) => {
      const client = await pathClient(request.params.clientId);
      if (client.client_type !== "confidential")
        throw new AuthError(
          400,
          ErrorCode.validation_failed,
          "Cannot regenerate secret for public client",
        );
      const regenerated = await regenerateSecret(db, client.id);
      return clientJson(regenerated.client, regenerated.secret);
    },
  );

  app.post("/oauth/clients/register", { onRequest: enabled }, async (request, reply) => {
    if (!app.config.oauthServer.allowDynamicRegistration)
      throw new AuthError(
        403,
        ErrorCode.oauth_dynamic_client_registration_disabled,
        "Dynamic client registration is not enabled",
      );
    await ctx.limits.take("oauth_register", request);
    const { client, secret } = await createClient(
      db,
      readRegistration(readBody(request), "dynamic"),
    );
    return reply.code(201).send(clientJson(client, secret));
  });
}
