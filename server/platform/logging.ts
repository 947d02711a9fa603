// Logger options: request lines without secrets. URLs keep their paths; the values of query
// parameters that can carry tokens are replaced; headers are not logged at all.
import type { FastifyServerOptions } from "fastify";
import { stdSerializers } from "pino";

const SECRET_PARAMS =
  /^(token|token_hash|code|refresh_token|access_token|apikey|password|code_verifier|auth_code)$/i;

export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SECRET_PARAMS.test(key)) params.set(key, "[redacted]");
  return `${url.slice(0, q)}?${params.toString()}`;
}

export function loggerOptions(level: string): FastifyServerOptions["logger"] {
  if (level === "silent") return false;
  return {
    level,
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: serializeError,
    },
  };
}

/** Errors without the values a database error carries (query parameters: emails, hashes, tokens). */
export function serializeError(err: Error) {
  const out = { ...stdSerializers.err(err) } as ReturnType<typeof stdSerializers.err> &
    Record<string, unknown>;
  for (const key of ["params", "parameters", "values", "query"]) delete out[key];
  return out;
}
