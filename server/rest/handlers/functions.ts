// Functions team members call (PostgREST's /rpc/): resending a failed email (members), a webhook
// delivery and resetting a member's second factor (admins); a newsletter issue's preview and test
// copy to the member, and a subscriber's unsubscription or deletion (members). Each takes one id;
// each answers whether it did it (the preview: the email, or null). POST runs the function; GET
// and HEAD run it in a read-only transaction, where a function that writes fails once it writes
// (after the checks of its privileges and argument).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { recordAudit, type AuditActor } from "../../audit/audit-log.ts";
import { resetMemberFactors } from "../../auth/team-changes.ts";
import { resendFailed } from "../../mail/outbox.ts";
import { previewIssue, sendTestCopy } from "../../newsletter/issues.ts";
import { deleteSubscriber, unsubscribe } from "../../newsletter/subscribers.ts";
import { isUuid } from "../../platform/uuid.ts";
import { PostgrestError } from "../errors.ts";
import { FUNCTION_METHODS } from "../methods.ts";
import { claimsOf } from "../request.ts";
import { actorOf, assertTeamAdmin, assertTeamReader } from "../team-access.ts";

/** Query parameters of PostgREST's own, never a function's arguments (QueryParams.hs reserved). */
const RPC_RESERVED = /^(select|columns|on_conflict)$|(^|\.)(order|limit|offset|and|or)$/;

type RpcRequest = FastifyRequest<{
  Params: { fn: string };
  Querystring: Record<string, string | undefined>;
}>;

/**
 * The arguments of a call: a POST's JSON object, else the query's parameters (all but
 * PostgREST's own; the apikey is the gateway's, which removes it).
 */
function argumentsOf(request: RpcRequest): Record<string, unknown> {
  if (request.method !== "POST")
    return Object.fromEntries(
      Object.entries(request.query).filter(
        ([name]) => name !== "apikey" && !RPC_RESERVED.test(name),
      ),
    );
  const body = request.body;
  return body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
}

export default async function functions(app: FastifyInstance) {
  const FUNCTIONS: Record<
    string,
    {
      param: string;
      admin: boolean;
      run: (id: string, request: FastifyRequest, actor: AuditActor) => Promise<unknown>;
    }
  > = {
    resend_email: {
      param: "email_id",
      admin: false,
      async run(id) {
        const resent = await resendFailed(app.db, id);
        if (resent) app.mailer.flush();
        return resent;
      },
    },
    reset_member_factors: {
      param: "user_id",
      admin: true,
      // The factors go and the member's sessions end, logged in one transaction.
      run: async (id, request, actor) =>
        (await app.db.transaction((q) =>
          resetMemberFactors({ q, request, admin: { actor, email: actor.username } }, id),
        )) !== undefined,
    },
    resend_webhook: {
      param: "delivery_id",
      admin: true,
      // Resent and logged in one transaction.
      run: (id, request, actor) =>
        app.webhooks.resend(id, (tx) =>
          recordAudit(tx, request, actor, "webhook_delivery_resent", { delivery_id: id }),
        ),
    },
    preview_issue: {
      param: "issue_id",
      admin: false,
      async run(id, _request, actor) {
        const email = await previewIssue(app.db, id, actor.username, app.newsletter.links);
        return email ? { subject: email.subject, html: email.html, text: email.text } : null;
      },
    },
    send_test_issue: {
      param: "issue_id",
      admin: false,
      async run(id, _request, actor) {
        if (!actor.username.includes("@"))
          throw new PostgrestError(
            400,
            "22023",
            "A test copy goes to the member's own address: send it as a member",
          );
        const queued = await sendTestCopy(app.db, id, actor.username, app.newsletter.links);
        if (queued) app.mailer.flush();
        return queued;
      },
    },
    unsubscribe_subscriber: {
      param: "subscriber_id",
      admin: false,
      run: (id, request, actor) =>
        app.db.transaction(async (tx) => {
          const [before] = await tx.query<{ status: string }>(
            "SELECT status FROM public.newsletter_subscribers WHERE id = $1 FOR UPDATE",
            [id],
          );
          if (!before || before.status === "unsubscribed") return false;
          await unsubscribe(tx, id, "team");
          await recordAudit(tx, request, actor, "newsletter_subscriber_unsubscribed", {
            subscriber_id: id,
          });
          return true;
        }),
    },
    delete_subscriber: {
      param: "subscriber_id",
      admin: false,
      run: (id, request, actor) =>
        app.db.transaction(async (tx) => {
          const deleted = await deleteSubscriber(tx, id);
          if (deleted)
            await recordAudit(tx, request, actor, "newsletter_subscriber_deleted", {
              subscriber_id: id,
            });
          return deleted;
        }),
    },
  };

  /** A function found by its name and its parameters' names (PostgREST's schema cache), or PGRST202. */
  function functionOf(request: RpcRequest, args: Record<string, unknown>) {
    const name = request.params.fn;
    const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
    const keys = Object.keys(args);
    if (fn && keys.length === 1 && keys[0] === fn.param) return fn;
    const named = keys.join(", ");
    const withParams = keys.length
      ? ` with parameter${keys.length > 1 ? "s" : ""} ${named}`
      : " without parameters";
    // A POST's JSON body may also be the one argument of a function taking a json parameter.
    const orJson =
      request.method === "POST" ? " or with a single unnamed json/jsonb parameter" : "";
    throw new PostgrestError(
      404,
      "PGRST202",
      `Could not find the function public.${name}${keys.length ? `(${named})` : withParams} in the schema cache`,
      `Searched for the function public.${name}${withParams}${orJson}, but no matches were found in the schema cache.`,
      fn ? `Perhaps you meant to call the function public.${name}(${fn.param})` : null,
    );
  }

  app.route<{ Params: { fn: string }; Querystring: Record<string, string | undefined> }>({
    method: ["GET", "POST"],
    url: "/rpc/:fn",
    async handler(request, reply) {
      const claims = await claimsOf(app, request);
      const args = argumentsOf(request);
      const fn = functionOf(request, args);
      const reader = await (fn.admin ? assertTeamAdmin : assertTeamReader)(
        app.db,
        claims,
        `function ${request.params.fn}`,
      );
      const id = args[fn.param];
      if (typeof id !== "string" || !isUuid(id))
        throw new PostgrestError(
          400,
          "22P02",
          `invalid input syntax for type uuid: "${typeof id === "string" ? id : JSON.stringify(id)}"`,
        );
      if (request.method !== "POST") {
        reply.header("allow", FUNCTION_METHODS);
        throw new PostgrestError(405, "25006", "cannot execute UPDATE in a read-only transaction");
      }
      return fn.run(id, request, actorOf(reader));
    },
  });

  // What a function takes, found as GET finds it (by the query's parameters).
  app.options<{ Params: { fn: string }; Querystring: Record<string, string | undefined> }>(
    "/rpc/:fn",
    async (request, reply) => {
      await claimsOf(app, request);
      functionOf(request, argumentsOf(request));
      return reply.header("allow", FUNCTION_METHODS).send();
    },
  );
}
