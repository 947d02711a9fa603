// One server function per lead form: check the caller's JWT, validate the body with the form's
// shared schema (invalid input spends nothing: the visitor corrects a field and sends the same
// solved captcha again), refuse the honeypot, verify the captcha, then redeem it, store the lead
// and queue its emails in one transaction. The same submission sent again with the same solution
// (its answer was lost on the way, or a retry while the first is still running) gets the first
// answer and stores nothing.
import type { FastifyInstance, FastifyRequest } from "fastify";
import crypto from "node:crypto";
import { z } from "zod";
import {
  CAPTCHA_FAILED,
  HONEYPOT_FIELD,
  leadSourceSchema,
  type LeadSource,
} from "../../common/leads.ts";
import type { LeadKind, LeadSchema } from "../leads/kinds.ts";
import { storeLead } from "../leads/store.ts";
import { clientKey } from "../platform/addresses.ts";
import { LIMITS } from "../platform/rate-limit.ts";
import { redisFailureLog } from "../platform/redis.ts";
import { bucketStore, type BucketRule, type BucketStore } from "../platform/token-bucket.ts";
import { bearerToken } from "../security/tokens.ts";
import type { Captcha } from "../security/captcha.ts";
import { FunctionError } from "./errors.ts";

/**
 * The leads one client address may send the team, across the lead forms: a burst of 10, then one
 * every six minutes. Each emails the team; without this, one address could have the site email
 * the team 30 times a minute (the forms' per-minute limits) for as long as it solves captchas.
 */
const TEAM_LEADS: BucketRule = { capacity: 10, perSecond: 1 / 360 };

/** The buckets of TEAM_LEADS, shared by the instances through Redis (REDIS_URL). */
export function teamLeadBuckets(app: FastifyInstance): BucketStore {
  return bucketStore(
    app.redis,
    `revwise-lead-rl:${app.config.siteUrl}:`,
    redisFailureLog(app.log, "lead limits"),
  );
}

export function registerLeadFunction<S extends LeadSchema>(
  app: FastifyInstance,
  captcha: Captcha,
  opts: { name: string; lead: LeadKind<S>; success: string; teamLeads: BucketStore },
) {
  const body = opts.lead.schema.extend({
    captcha: z.string().max(4096).optional(),
    [HONEYPOT_FIELD]: z.string().max(500).optional(),
    source: leadSourceSchema.strip().optional(),
  });

  app.post(
    `/${opts.name}`,
    {
      config: {
        rateLimit: {
          ...LIMITS.form,
          keyGenerator: (r: FastifyRequest) => `fn:${opts.name}:${clientKey(r.ip)}`,
        },
      },
    },
    async (request) => {
      await requireJwt(app, request);
      if (
        typeof request.body !== "object" ||
        request.body === null ||
        Array.isArray(request.body)
      ) {
        throw new FunctionError(400, "bad_request", "Send the form's fields as a JSON object.");
      }
      const parsed = body.safeParse(request.body);
      if (!parsed.success) {
        const fields: Record<string, string> = {};
        for (const issue of parsed.error.issues)
          fields[String(issue.path[0] ?? "body")] ??= issue.message;
        throw new FunctionError(
          400,
          "validation_failed",
          Object.values(fields)[0] ?? "Invalid input",
          fields,
        );
      }
      const {
        captcha: payload,
        [HONEYPOT_FIELD]: honeypot,
        source,
        ...fields
      } = parsed.data as Record<string, unknown> & {
        captcha?: string;
        source?: LeadSource;
      };
      if (typeof honeypot === "string" && honeypot !== "") {
        request.log.info({ fn: opts.name }, "honeypot filled; submission refused");
        throw new FunctionError(400, "rejected", "Your submission could not be accepted.");
      }
      const verdict = await captcha.verify(payload);
      if (!verdict.ok) {
        request.log.info({ fn: opts.name, reason: verdict.reason }, "captcha refused");
        throw new FunctionError(400, "captcha_failed", CAPTCHA_FAILED);
      }
      // A verified solution is spent in the transaction that stores its lead: one solved captcha
      // buys one stored lead, never a series of them. The same submission sent again (its answer
      // lost, or a retry while the first still runs: it waits for the first's transaction) is
      // answered as the first, and nothing is stored or sent twice; when the first stored nothing,
      // the repeat is a new attempt.
      const submission = crypto
        .createHash("sha256")
        .update(JSON.stringify([opts.name, fields, source ?? null]))
        .digest("base64url");
      // The team's budget is spent before the transaction, so that no database connection (PGlite
      // has one) waits on Redis; a submission sent again spends it too.
      const taken = await opts.teamLeads.take(clientKey(request.ip), TEAM_LEADS);
      if (!taken.ok)
        throw new FunctionError(
          429,
          "rate_limited",
          "Too many submissions from your network. Please try again later.",
        ).retryingAfter(taken.retryAfterSeconds);
      const leadId = await app.db.transaction(async (tx) => {
        const redemption = await captcha.redeem(tx, verdict, submission);
        if (redemption.kind === "repeated") return redemption.leadId;
        if (redemption.kind === "replayed") {
          request.log.info({ fn: opts.name }, "captcha replayed");
          throw new FunctionError(400, "captcha_failed", CAPTCHA_FAILED);
        }
        const lead = await storeLead({
          db: tx,
          kind: opts.lead,
          input: fields as z.output<S>,
          source,
          config: app.config,
          timeZone: app.teamTimeZone.current(),
          events: app.webhooks.any(),
        });
        await captcha.settle(tx, verdict.nonce, lead.id);
        return lead.id;
      });
      app.pageViews.converted(request, { id: leadId, path: source?.page });
      app.mailer.flush();
      app.webhooks.flush();
      return { ok: true, id: leadId, message: opts.success };
    },
  );
}

/** Supabase's functions runtime verifies the JWT (anon key or a user's token) before user code. */
async function requireJwt(app: FastifyInstance, request: FastifyRequest) {
  const check = await app.tokens.verify(bearerToken(request.headers.authorization));
  if (!check.ok)
    throw new FunctionError(
      401,
      "invalid_jwt",
      check.reason === "expired" ? "JWT expired" : "Invalid JWT",
    );
}
