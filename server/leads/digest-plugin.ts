// Runs the team's lead digests (digests.ts) in every instance: each kind is looked at every tenth
// of LEAD_DIGEST_SECONDS (at most every 30 s); the row lock lets one instance queue a due digest,
// and the mail worker delivers it.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Chore } from "../platform/chore.ts";
import { DIGESTS, runDigest } from "./digests.ts";

export default fp(
  async function leadDigests(app: FastifyInstance) {
    const log = app.log.child({ module: "lead-digests" });
    const chore = new Chore(
      async () => {
        for (const digest of DIGESTS) {
          try {
            if ((await runDigest(app.db, digest, app.config, app.teamTimeZone.current())) > 0)
              app.mailer.flush();
          } catch (err) {
            log.warn({ err, kind: digest.kind }, "could not run the lead digest; will try again");
          }
        }
      },
      Math.min(30_000, app.config.leadDigestMs / 10),
    );
    app.addHook("onReady", async () => chore.start());
    app.addHook("onClose", () => chore.stop());
  },
  { name: "lead-digests", dependencies: ["services", "mailer", "team-time-zone"] },
);
