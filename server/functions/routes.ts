// /functions/v1: the site's server functions (the lead forms', the captcha's, the account page's).
import type { FastifyInstance } from "fastify";
import { FUNCTIONS } from "../../common/functions.ts";
import { contactLead, requestAccessLead, requestDemoLead } from "../leads/kinds.ts";
import { noStoreUnlessSet } from "../http/no-store.ts";
import { LIMITS } from "../platform/rate-limit.ts";
import { Captcha, DEFAULT_CAPTCHA_OPTIONS, type CaptchaOptions } from "../security/captcha.ts";
import { functionNotFound, functionsErrorHandler } from "./errors.ts";
import { registerLeadFunction, teamLeadBuckets } from "./lead-function.ts";
import { registerSessionsFunction } from "./sessions.ts";
import { registerAccountDataFunction } from "./account-data.ts";
import { registerAccountDeletionFunction } from "./account-deletion.ts";

export default async function functionRoutes(
  app: FastifyInstance,
  opts: { captcha?: Partial<CaptchaOptions> },
) {
  app.setErrorHandler(functionsErrorHandler);
  app.setNotFoundHandler(functionNotFound);
  noStoreUnlessSet(app);
  const captcha = new Captcha(app.keys.derive("captcha"), {
    ...DEFAULT_CAPTCHA_OPTIONS,
    ...opts.captcha,
  });

  // The widget fetches its challenge with a plain GET (no headers), like Supabase's open routes.
  app.get(
    `/${FUNCTIONS.captchaChallenge}`,
    { config: { rateLimit: LIMITS.captchaChallenge } },
    async () => captcha.challenge(),
  );

  const teamLeads = teamLeadBuckets(app);
  registerLeadFunction(app, captcha, {
    name: FUNCTIONS.requestAccess,
    lead: requestAccessLead,
    success: "Thank you for your interest. Our team will be in touch with you soon!",
    teamLeads,
  });
  registerLeadFunction(app, captcha, {
    name: FUNCTIONS.contact,
    lead: contactLead,
    success: "Your message has been sent successfully. We'll get back to you soon!",
    teamLeads,
  });
  registerLeadFunction(app, captcha, {
    name: FUNCTIONS.requestDemo,
    lead: requestDemoLead,
    success: "Thanks! We'll be in touch within one business day to schedule your demo.",
    teamLeads,
  });

  registerSessionsFunction(app);
  registerAccountDataFunction(app);
  registerAccountDeletionFunction(app);

  app.all("/*", functionNotFound);
}
