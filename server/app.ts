// Builds the application: external plugins, then the platform's own, then the routes.
// server.ts listens; tests build the app and use app.inject.
import compress from "@fastify/compress";
import Fastify, { type FastifyInstance, type RouteOptions } from "fastify";
import fs from "node:fs";
import { cleanUpSignIns } from "./auth/cleanup.ts";
import authRoutes from "./auth/routes.ts";
import { OAUTH_APPS, SIGN_IN_PROVIDERS, SSO_SIGN_IN } from "../common/site-build.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import { openDatabase } from "./db/open.ts";
import functionRoutes from "./functions/routes.ts";
import {
  clientErrors,
  frameworkErrors,
  refuseConnect,
  refuseWhileClosing,
  requireHost,
} from "./framework-errors.ts";
import { followAnswers } from "./http/connection-answers.ts";
import { rootErrorHandler, rootNotFound } from "./http/root-errors.ts";
import emailBudget from "./mail/email-budget.ts";
import mailboxRoutes from "./mail/mailbox-routes.ts";
import mailer, { type MailerOptions } from "./mail/mailer.ts";
import jsonBody from "./platform/json-body.ts";
import { httpTimeouts } from "./platform/http-timeouts.ts";
import afterAnswer from "./platform/after-answer.ts";
import { AccessLog, loggerOptions } from "./platform/logging.ts";
import { recordRequestDuration } from "./platform/request-durations.ts";
import { parseQueryString } from "./platform/query-string.ts";
import securityHeaders from "./platform/security-headers.ts";
import rateLimits from "./platform/rate-limit.ts";
import readiness from "./platform/readiness.ts";
import metricsListener from "./platform/metrics-listener.ts";
import { answerWithRequestId, requestIds } from "./platform/request-ids.ts";
import { digestsDue } from "./metrics/metrics.ts";
import { countDigestsDue } from "./leads/digests.ts";
import { readBacklog } from "./queue/backlog.ts";
import redis from "./platform/redis.ts";
import services from "./services.ts";
import restRoutes from "./rest/routes.ts";
import type { CaptchaOptions } from "./security/captcha.ts";
import { loadKeys, type Keys } from "./security/keys.ts";
import { loadSite, type Site, type SiteValues } from "./site/site-files.ts";
import { SiteFastPath } from "./site/fast-path.ts";
import siteRoutes from "./site/site-routes.ts";
import type { ViewRequest } from "./analytics/page-views.ts";
import pageAnalytics from "./analytics/plugin.ts";
import { countPastVisitors } from "./analytics/visitor-counts.ts";
import webhooks, { type WebhooksOptions } from "./webhooks/webhooks-plugin.ts";
import newsletter from "./newsletter/plugin.ts";
import leadDigests from "./leads/digest-plugin.ts";
import dueReminders from "./leads/due-reminder-plugin.ts";
import teamTimeZone from "./team/time-zone-plugin.ts";
import { deleteExpiredAuditEntries } from "./audit/audit-log.ts";
import { deleteExpiredLeads } from "./leads/retention.ts";
import { emailClaims } from "./mail/claims.ts";
import { deleteOldTextMessages } from "./mail/text-messages.ts";
import { deleteUnconfirmed } from "./newsletter/subscribers.ts";
import retention from "./platform/retention.ts";
import { expireDone } from "./queue/claims.ts";
import { BODY_LIMIT } from "./http/body-limit.ts";
import { deliveryClaims } from "./webhooks/deliveries.ts";

export type AppOptions = {
  config: Config;
  /** An open (or opening) database; when absent the app opens its own from the config. */
  db?: Database | Promise<Database>;
  /** Whether closing the app closes the database; by default only one the app opened. */
  ownsDb?: boolean;
  keys?: Keys;
  /** The built site; when absent it is loaded from config.siteDir if that exists. */
  site?: Site | null;
  /** Test seams: faster mail retries, an injected transport, cheaper captchas. */
  mail?: MailerOptions;
  /** Test seam: faster webhook retries and shorter leases. */
  webhooks?: WebhooksOptions;
  captcha?: Partial<CaptchaOptions>;
  /** Test seam: told of every route as it is registered (the fuzz test enumerates them). */
  onRoute?: (route: RouteOptions) => void;
  /** Test seam: the path answering site files before Fastify (tests read what it answered). */
  fastPath?: SiteFastPath;
};

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const timeouts = httpTimeouts(config.requestTimeoutMs);
  // The site's plain GETs and HEADs are answered before Fastify once the site is loaded (below).
  const fastPath = opts.fastPath ?? new SiteFastPath();
  const app = Fastify({
    serverFactory: fastPath.serverFactory,
    // Requests are timed for /metrics when it is on (METRICS_PORT), by the access log.
    logger: await loggerOptions(config.logLevel, config.logFormat, config.metrics !== undefined),
    logController: new AccessLog(config.metrics ? recordRequestDuration : undefined),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    ...timeouts,
    // The id a trusted balancer sent in X-Request-Id, else a new one (platform/request-ids.ts).
    requestIdHeader: false,
    genReqId: requestIds(config.trustProxy),
    // refuseWhileClosing answers in each protocol's shape instead.
    return503OnClosing: false,
    routerOptions: { maxParamLength: 200, querystringParser: parseQueryString },
    frameworkErrors: frameworkErrors(config.hsts),
    clientErrorHandler: clientErrors(config.hsts),
    // A request without a Host header is refused by requireHost, with the usual headers.
    http: { ...timeouts.http, requireHostHeader: false },
  });
  refuseWhileClosing(app);
  refuseConnect(app);
  followAnswers(app.server);
  app.addHook("onRequest", answerWithRequestId);
  app.addHook("onRequest", requireHost);
  if (opts.onRoute) app.addHook("onRoute", opts.onRoute);
  try {
    const keys =
      opts.keys ?? (await loadKeys({ jwtSecret: config.jwtSecret, dataDir: config.dataDir }));
    // The site loads (reading, compressing) while the database opens.
    const loadingSite =
      opts.site === undefined
        ? loadSiteIfBuilt(config.siteDir, {
            anonKey: keys.anonKey,
            siteUrl: config.siteUrl,
            providers: [
              ...SIGN_IN_PROVIDERS.filter((p) => p in config.external),
              ...(config.saml ? [SSO_SIGN_IN] : []),
              ...(config.oauthServer.enabled ? [OAUTH_APPS] : []),
            ],
          })
        : Promise.resolve(opts.site);
    loadingSite.catch(() => {}); // reported when awaited below
    const db = await (opts.db ?? openDatabase(config));
    await app.register(services, { config, db, keys, ownsDb: opts.ownsDb ?? !opts.db });
    await app.register(readiness);

    // Responses only: no client sends compressed bodies, and the decompression hook would run on
    // every request. A compressed body is then refused like any body that is not JSON. What it
    // compresses carries no ETag; the site's files, which do, are compressed by their own routes,
    // a tag per coding (site/site-routes.ts, compress: false).
    await app.register(compress, {
      global: true,
      globalDecompression: false,
      threshold: 1024,
      encodings: ["br", "gzip"],
    });
    await app.register(securityHeaders, { hsts: config.hsts });
    await app.register(jsonBody);
    app.setErrorHandler(rootErrorHandler);
    app.setNotFoundHandler(rootNotFound);

    await app.register(redis, { redisUrl: config.redisUrl });
    await app.register(metricsListener, {
      readers: [
        { what: "the emails waiting", read: (db) => readBacklog(db, emailClaims) },
        { what: "the webhooks waiting", read: (db) => readBacklog(db, deliveryClaims) },
        {
          what: "the lead digests due",
          read: async (db) => digestsDue.set(await countDigestsDue(db, config)),
        },
      ],
    });
    await app.register(rateLimits);
    await app.register(emailBudget);
    await app.register(mailer, opts.mail ?? {});
    await app.register(afterAnswer);
    await app.register(webhooks, opts.webhooks ?? {});
    await app.register(newsletter);
    await app.register(teamTimeZone);
    await app.register(leadDigests);
    await app.register(dueReminders);
    await app.register(retention, {
      deletions: [
        { what: "leads past their keeping time", run: deleteExpiredLeads },
        { what: "audit log entries past their keeping time", run: deleteExpiredAuditEntries },
        { what: "newsletter addresses left unconfirmed", run: deleteUnconfirmed },
        { what: "old text messages of the dev mailbox", run: deleteOldTextMessages },
        { what: "page visitors' codes of past days (now counts)", run: countPastVisitors },
        {
          what: "stale flow states and old anonymous users",
          run: (db) => cleanUpSignIns(db, { anonymousEnabled: config.anonymousEnabled }),
        },
        { what: "emails sent or failed long ago", run: (db) => expireDone(db, emailClaims) },
        {
          what: "webhook deliveries done or failed long ago",
          run: (db) => expireDone(db, deliveryClaims),
        },
      ],
    });

    // Pages are counted as they are served; leads note their visitor's conversion with or
    // without a site.
    await app.register(pageAnalytics);
    await app.register(authRoutes, { prefix: "/auth/v1" });
    await app.register(restRoutes, { prefix: "/rest/v1" });
    await app.register(functionRoutes, { prefix: "/functions/v1", captcha: opts.captcha });
    if (config.devMailbox) await app.register(mailboxRoutes);

    const site = await loadingSite;
    if (site) {
      const onPage = (request: ViewRequest, path: string) => app.pageViews.record(request, path);
      await app.register(siteRoutes, { site, onPage });
      fastPath.serve({
        site,
        log: app.log,
        hsts: config.hsts,
        trustProxy: config.trustProxy,
        draining: () => app.readiness.draining,
        onPage,
        timed: config.metrics !== undefined,
      });
      app.addHook("preClose", (done) => {
        fastPath.stop();
        done();
      });
    } else
      app.log.warn(`no built site in ${config.siteDir}: run "npm run build" to serve the pages`);

    await app.ready();
    return app;
  } catch (err) {
    await app.close().catch(() => {});
    throw err;
  }
}

async function loadSiteIfBuilt(dir: string, values: SiteValues): Promise<Site | null> {
  return fs.existsSync(dir) ? loadSite(dir, values) : null;
}
