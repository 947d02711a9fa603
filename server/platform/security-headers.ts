// Security headers on every response. HTML pages bring their own Content-Security-Policy (with
// the hashes of their inline scripts, see site/site-files.ts); everything else gets a deny-all one.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

export const API_CSP =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export default fp(
  async function securityHeaders(app: FastifyInstance, opts: { hsts: boolean }) {
    app.addHook("onSend", async (_request, reply, payload) => {
      reply.header("x-content-type-options", "nosniff");
      reply.header("referrer-policy", "strict-origin-when-cross-origin");
      reply.header("x-frame-options", "DENY");
      reply.header("cross-origin-opener-policy", "same-origin");
      reply.header("cross-origin-resource-policy", "same-origin");
      reply.header(
        "permissions-policy",
        "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
      );
      if (opts.hsts)
        reply.header("strict-transport-security", "max-age=63072000; includeSubDomains");
      if (!reply.hasHeader("content-security-policy"))
        reply.header("content-security-policy", API_CSP);
      return payload;
    });
  },
  { name: "security-headers" },
);
