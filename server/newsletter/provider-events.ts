// POST /newsletter/provider-events: the mail provider tells of a hard bounce or a complaint, and
// the address stops receiving the newsletter (subscribers.ts turnOff). The provider proves itself
// with MAIL_EVENTS_SECRET in its Authorization header, as a bearer token or as the password of
// Basic authentication (what most providers' webhook settings offer); without the variable the
// route does not exist. The body is one event or a list of up to 100:
// `{"type": "bounce" | "complaint", "email": "…", "message_id": "<…@outbox.revwise>"}` (the
// Message-ID is optional; it names the copy, which then counts as bounced in its issue's
// figures). A malformed body is a 400 and changes nothing; the answer never says whether an
// address was known.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { sameSecret } from "../security/constant-time.ts";
import { turnOff } from "./subscribers.ts";

export const PROVIDER_EVENTS_PATH = "/newsletter/provider-events";

const event = z.object({
  type: z.enum(["bounce", "complaint"]),
  email: z.string().min(3).max(320),
  message_id: z.string().max(200).optional(),
});
const events = z.union([event, z.array(event).min(1).max(100)]);

/** The outbox id a Message-ID of ours names (transport.ts writes `<id@outbox.revwise>`). */
const emailIdOf = (messageId: string | undefined) =>
  /^<?([0-9a-f-]{36})@outbox\.revwise>?$/i.exec(messageId?.trim() ?? "")?.[1]?.toLowerCase();

/** The secret the request presents: a bearer token, or Basic authentication's password. */
function presented(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (bearer) return bearer;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header)?.[1];
  if (!basic) return undefined;
  const decoded = Buffer.from(basic, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

export default async function providerEvents(app: FastifyInstance) {
  const secret = app.config.mailEventsSecret;
  if (!secret) return;
  app.post(PROVIDER_EVENTS_PATH, async (request, reply) => {
    const given = presented(request);
    if (!given || !sameSecret(secret, given))
      return reply
        .code(401)
        .header("www-authenticate", 'Basic realm="mail events"')
        .send({ error: "unauthorized", message: "Present MAIL_EVENTS_SECRET" });
    const parsed = events.safeParse(request.body);
    if (!parsed.success)
      return reply.code(400).send({
        error: "invalid_events",
        message:
          'Send {"type": "bounce" | "complaint", "email": "…", "message_id"?: "…"} or a list of up to 100',
      });
    const list = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
    await app.db.transaction(async (tx) => {
      for (const e of list)
        await turnOff(tx, {
          email: e.email,
          reason: e.type === "bounce" ? "bounced" : "complained",
          emailId: emailIdOf(e.message_id),
        });
    });
    return reply.code(204).send();
  });
}
