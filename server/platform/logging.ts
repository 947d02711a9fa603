// Logger options and the access log: one line per request, written when the response is done,
// without secrets. URLs keep their paths; the values of query parameters that can carry tokens,
// and of the team's REST filters, are replaced; headers are not logged at all.
import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from "fastify";
import { levels, stdSerializers, symbols } from "pino";
import { pathOf, splitTarget } from "../http/request-target.ts";
import { LogLines } from "./log-lines.ts";

const SECRET_PARAMS =
  /^(token|token_hash|code|refresh_token|access_token|apikey|password|code_verifier|auth_code)$/i;

/** What a read of /rest/v1 names besides its filters: columns and paging, never people's data. */
const REST_SHAPE_PARAMS = new Set(["select", "order", "limit", "offset", "columns", "on_conflict"]);
const REDACTED = "[redacted]";
const PROBES = new Set(["/livez", "/readyz"]);

export function redactUrl(url: string): string {
  const { path, query } = splitTarget(url);
  if (query === undefined) return url;
  const params = new URLSearchParams(query);
  // A filter's value may be what the team searched for (an address, a name): only its operator
  // is kept.
  const filters = url.startsWith("/rest/v1/");
  let redacted = false;
  for (const [key, value] of [...params]) {
    if (SECRET_PARAMS.test(key)) params.set(key, REDACTED);
    else if (filters && !REST_SHAPE_PARAMS.has(key)) {
      const operator = /^(not\.)?[a-z]+\./.exec(value)?.[0];
      params.set(key, key === "or" || key === "and" || !operator ? REDACTED : operator + REDACTED);
    } else continue;
    redacted = true;
  }
  // A query with nothing to hide is logged as it came.
  return redacted ? `${path}?${params.toString()}` : url;
}

/**
 * `completions`: the access log must be told of every request even when no line is written
 * (requests timed for /metrics): Fastify tells it only when a logger exists.
 */
export async function loggerOptions(
  level: string,
  format: "json" | "pretty",
  completions = false,
): Promise<FastifyServerOptions["logger"]> {
  if (level === "silent") return completions ? { level } : false;
  return {
    level,
    stream:
      format === "pretty"
        ? await readableLines()
        : // Lines are gathered and written 16 KiB (or a quarter of a second) at a time, and on
          // exit (log-lines.ts).
          new LogLines(1),
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      // Fastify types it for errors only; a reason kept as text is logged under `err` as well.
      err: serializeError as (err: Error) => ReturnType<typeof stdSerializers.err>,
    },
  };
}

/**
 * Lines for a person at a terminal: time, level, message; a request as one line
 * ("GET /faq 200 3 ms"); a line of a request ends with its id in brackets. Loaded only then
 * (pino-pretty is not needed for JSON).
 */
async function readableLines() {
  const { build } = await import("pino-pretty");
  return build({
    sync: true,
    translateTime: "SYS:HH:MM:ss",
    ignore: "pid,hostname,req,res,responseTime,reqId",
    messageFormat: (log, messageKey) => {
      const req = log.req as { method?: string; url?: string } | undefined;
      const res = log.res as { statusCode?: number } | undefined;
      const message =
        req && res
          ? `${req.method} ${req.url} ${res.statusCode} ${Math.round(Number(log.responseTime))} ms`
          : String(log[messageKey] ?? "");
      return typeof log.reqId === "string" ? `${message} [${log.reqId}]` : message;
    },
  });
}

/** Told of every request when it is done, with its time in milliseconds. */
export type CompletedRequests = (
  request: FastifyRequest,
  reply: FastifyReply,
  elapsedMs: number,
) => void;

/**
 * One line per request, when it is done (Fastify's default writes two, on arrival and on
 * completion: the arrival line doubles the logging work of every request for little use); and
 * `completed`, when given, is told of it too (the request-duration metric), so that nothing else
 * needs a hook on every request.
 */
export class AccessLog extends LogController {
  private readonly completed: CompletedRequests | undefined;
  /** The text writer of the info lines (accessLineWriter); null when they are not written. */
  private text: ((answered: AnsweredRequest) => void) | null | undefined;

  constructor(completed?: CompletedRequests) {
    super();
    this.completed = completed;
  }

  override incomingRequest() {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const responseTime = reply.elapsedTime;
    this.completed?.(request, reply, responseTime);
    if (!error && !(PROBES.has(pathOf(request)) && reply.statusCode < 400)) {
      // The line every answered request gets, written as text like the one of a request answered
      // before the framework (the same writer): pino's general serializing of it cost more than
      // many a request's own work.
      this.text ??= accessLineWriter(request.server.log) ?? null;
      if (this.text)
        this.text({
          id: request.id,
          method: request.method,
          url: request.url,
          ip: request.ip,
          status: reply.statusCode,
          elapsedMs: responseTime,
        });
      return;
    }
    const line = { req: request, res: reply, responseTime };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    // A balancer's health checks come every second or so: they are logged when they fail only.
    else reply.log.debug(line, "probe");
  }
}

const COMPLETED = "request completed";

/** A request as its access line tells it. */
export type AnsweredRequest = {
  id: string;
  method: string;
  url: string;
  ip: string | undefined;
  status: number;
  elapsedMs: number;
};

/**
 * What writes the access line of an answered request, when info lines are written: the JSON line
 * pino would write for it (the same fields in the same order, the URL redacted, the logger's own
 * bindings and the request's id), as text straight to the logger's destination, for the requests
 * the framework answers (AccessLog) and those answered before it (site/fast-path.ts) alike.
 * pino's general serializing of the same line costs several times the rest of a static request's
 * own work (decision 0051).
 *
 * No number becomes text anew on each line: V8 keeps the text of each number it converts in a
 * cache held by the old generation, so a fresh time or duration per request kept every line's
 * numbers alive past the young generation's collections, which cost more than the line itself.
 * The time's text is made once per millisecond (the start of the line up to the request id), and
 * the duration is written to the microsecond by toFixed, which makes a new string each time.
 */
export function accessLineWriter(
  log: FastifyBaseLogger,
): ((answered: AnsweredRequest) => void) | undefined {
  const logger = log as unknown as Record<symbol, unknown> & { level?: string };
  const stream = logger[symbols.streamSym] as { write(line: string): unknown } | undefined;
  const bindings = logger[symbols.chindingsSym];
  const level = levels.values[logger.level ?? "silent"] ?? Infinity;
  if (level > levels.values.info! || !stream || typeof bindings !== "string") return undefined;
  const head = `{"level":${levels.values.info}`;
  const tail = `,"msg":${JSON.stringify(COMPLETED)}}\n`;
  let startMs = -1;
  let start = "";
  return ({ id, method, url, ip, status, elapsedMs }) => {
    const now = Date.now();
    if (now !== startMs) {
      startMs = now;
      start = `${head},"time":${now}${bindings},"reqId":`;
    }
    stream.write(
      start +
        JSON.stringify(id) +
        `,"req":{"method":${JSON.stringify(method)},"url":${JSON.stringify(redactUrl(url))}` +
        (ip === undefined ? "" : `,"ip":${JSON.stringify(ip)}`) +
        `},"res":{"statusCode":${status}},"responseTime":${elapsedMs.toFixed(3)}` +
        tail,
    );
  };
}

/**
 * Errors without the values a database error carries (query parameters: emails, hashes, tokens);
 * an error already told as text is logged as that text.
 */
export function serializeError(err: Error | string) {
  if (typeof err !== "object" || err === null) return err;
  const out = { ...stdSerializers.err(err) } as ReturnType<typeof stdSerializers.err> &
    Record<string, unknown>;
  for (const key of ["params", "parameters", "values", "query"]) delete out[key];
  return out;
}
