// Security headers on every response. HTML pages bring their own Content-Security-Policy (with
// the hashes of their inline scripts, see site/site-files.ts); everything else gets a deny-all one.
// The set is computed once and applied in one call from a synchronous hook (it runs on every request).
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

export const API_CSP =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function securityHeaderSet(hsts: boolean): Record<string, string> {
  return {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy":
      "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
    ...(hsts ? { "strict-transport-security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

export default fp(
  async function securityHeaders(app: FastifyInstance, opts: { hsts: boolean }) {
    const headers = securityHeaderSet(opts.hsts);
    app.addHook("onSend", (_request, reply, payload, done) => {
      reply.headers(headers);
      if (!reply.hasHeader("content-security-policy"))
        reply.header("content-security-policy", API_CSP);
      done(null, payload);
    });
  },
  { name: "security-headers" },
);
