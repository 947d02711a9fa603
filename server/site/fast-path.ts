// The site's commonest requests answered before the framework: a GET or HEAD of one of the built
// site's pages or files, named by its exact path (a query string aside), with a well-formed Host
// and no body, while the server is neither draining nor closing. Such a request gets exactly what
// the framework's site route would answer (site-answers.ts), with the security headers and the
// request's id, its access line, its duration for /metrics and, for a page, its page view; it
// only skips the framework's per-request work (request and reply objects, hooks, a logger per
// request), which cost more than Node's own work for such a request (decision 0051). Everything
// else (another method, a path to decode, redirect or refuse, a 404, a bad Host, a body, a request
// while draining or closing) goes to the framework as before.
import proxyAddr from "@fastify/proxy-addr";
import type { FastifyBaseLogger, FastifyServerFactoryHandler } from "fastify";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { ViewRequest } from "../analytics/page-views.ts";
import { hostProblem } from "../http/host-header.ts";
import { accessLineWriter, type AnsweredRequest } from "../platform/logging.ts";
import { recordDuration } from "../platform/request-durations.ts";
import { requestIds } from "../platform/request-ids.ts";
import { API_CSP, securityHeaderSet } from "../platform/security-headers.ts";
import { namesCurrentTag, variantFor, type Variant } from "./site-answers.ts";
import type { Site } from "./site-files.ts";

/** The framework's route for the site's files: the route label of their requests' durations. */
export const SITE_ROUTE = "/*";

export type FastPathOptions = {
  site: Site;
  log: FastifyBaseLogger;
  hsts: boolean;
  trustProxy: false | string[];
  /** Whether the server is draining: its answers then close their connections (the framework's). */
  draining: () => boolean;
  /** Told of each page served to a GET (page analytics). */
  onPage?: (request: ViewRequest, path: string) => void;
  /** Whether each request's duration is recorded for /metrics. */
  timed: boolean;
};

/** A variant's complete headers, as the flat name-value list writeHead takes. */
type Answers = { ok: string[]; notModified: string[] };

export class SiteFastPath {
  private options: FastPathOptions | undefined;
  private security: [string, string][] = [];
  private readonly answers = new WeakMap<Variant, Answers>();
  private requestId: (raw: IncomingMessage) => string = () => "";
  private clientIp: (raw: IncomingMessage) => string | undefined = () => undefined;
  private accessLine: ((answered: AnsweredRequest) => void) | undefined;
  /** How many requests it answered (the tests read it). */
  served = 0;

  /**
   * Fastify's `serverFactory`: the HTTP server Fastify makes itself (its options and timeouts),
   * with this path in front of Fastify's handler.
   */
  readonly serverFactory = (
    handler: FastifyServerFactoryHandler,
    options: Record<string, unknown>,
  ): http.Server => {
    const server = http.createServer(
      (options.http ?? {}) as http.ServerOptions,
      (request, response) => {
        if (!this.tryAnswer(request, response)) handler(request, response);
      },
    );
    server.keepAliveTimeout = options.keepAliveTimeout as number;
    server.requestTimeout = options.requestTimeout as number;
    server.setTimeout(options.connectionTimeout as number);
    const perSocket = options.maxRequestsPerSocket as number | undefined;
    if (perSocket && perSocket > 0) server.maxRequestsPerSocket = perSocket;
    return server;
  };

  /** Answers the site's requests from now on. */
  serve(options: FastPathOptions): void {
    this.options = options;
    this.security = Object.entries(securityHeaderSet(options.hsts));
    this.requestId = requestIds(options.trustProxy);
    const { trustProxy } = options;
    const trusted = trustProxy === false ? undefined : proxyAddr.compile(trustProxy);
    // The client's address as the framework's request.ip tells it.
    this.clientIp = trusted ? (raw) => proxyAddr(raw, trusted) : (raw) => raw.socket.remoteAddress;
    this.accessLine = accessLineWriter(options.log);
  }

  /** Answers nothing more: the framework refuses what comes while the server closes. */
  stop(): void {
    this.options = undefined;
  }

  /**
   * Answers as `answer` does, without letting a failure of its own take the server down: one
   * before the answer was written leaves the request to the framework, one after it (counting
   * the view, the log line) is logged.
   */
  private tryAnswer(request: IncomingMessage, response: ServerResponse): boolean {
    try {
      return this.answer(request, response);
    } catch (err) {
      this.options?.log.error({ err }, "site file answered before the framework: failed");
      return response.headersSent;
    }
  }

  /** Answers the request if it is one of the site's plain ones; false leaves it to the framework. */
  private answer(request: IncomingMessage, response: ServerResponse): boolean {
    const options = this.options;
    if (!options) return false;
    const started = performance.now();
    const { method, headers } = request;
    if (method !== "GET" && method !== "HEAD") return false;
    const url = request.url!;
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    const page = options.site.pages.get(path);
    const file = page ?? options.site.files.get(path);
    if (
      !file ||
      headers["content-length"] !== undefined ||
      headers["transfer-encoding"] !== undefined ||
      hostProblem(request) !== undefined ||
      options.draining()
    )
      return false;

    const variant = variantFor(file, headers["accept-encoding"]);
    const answers = this.answersOf(variant);
    const fresh = namesCurrentTag(headers["if-none-match"], variant.etag);
    const status = fresh ? 304 : 200;
    const id = this.requestId(request);
    const head = (fresh ? answers.notModified : answers.ok).slice();
    head.push("x-request-id", id);
    response.writeHead(status, head);
    response.end(fresh || method === "HEAD" ? undefined : variant.body);
    this.served++;

    const elapsedMs = performance.now() - started;
    if (options.timed) recordDuration(method, SITE_ROUTE, status, elapsedMs);
    if (this.accessLine || (page && method === "GET" && options.onPage)) {
      const ip = this.clientIp(request);
      this.accessLine?.({ id, method, url, ip, status, elapsedMs });
      if (page && method === "GET") options.onPage?.({ headers, ip: ip ?? "", url }, path);
    }
    return true;
  }

  /** A variant's headers with the security headers, each list built on its first request. */
  private answersOf(variant: Variant): Answers {
    let known = this.answers.get(variant);
    if (known) return known;
    const list = (headers: Record<string, string>, length?: number) => {
      const all = [...Object.entries(headers), ...this.security];
      if (!headers["content-security-policy"]) all.push(["content-security-policy", API_CSP]);
      if (length !== undefined) all.push(["content-length", String(length)]);
      return all.flat();
    };
    known = {
      ok: list(variant.headers, variant.body.length),
      notModified: list(variant.notModified),
    };
    this.answers.set(variant, known);
    return known;
  }
}
