// GET /authorize (sign-in with an external provider) and GET or POST /callback (the provider's
// answer): external/sign-in.ts runs both.
import type { FastifyInstance } from "fastify";
import type { AuthContext } from "../context.ts";
import { authorizationUrl, providerCallback } from "../external/sign-in.ts";
import { acceptFormBodies } from "../form-bodies.ts";

export default async function external(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  // A provider may post its answer as a form (`response_mode=form_post`).
  acceptFormBodies(app);
  app.get("/authorize", async (request, reply) =>
    reply.redirect(await authorizationUrl(ctx, request), 302),
  );
  app.get("/callback", (request, reply) => providerCallback(ctx, request, reply));
  app.post("/callback", (request, reply) => providerCallback(ctx, request, reply));
}
