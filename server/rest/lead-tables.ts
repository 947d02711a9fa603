// The lead tables /rest/v1 takes anonymous inserts into, by table name: the footer's newsletter
// sign-up (a kind of the newsletter's own: newsletter/subscribers.ts) and the "Watch Demo" dialog.
import { watchDemoLead, type RestLeadKind } from "../leads/kinds.ts";
import { newsletterLead } from "../newsletter/subscribers.ts";

export const REST_LEADS: Record<string, RestLeadKind> = {
  [newsletterLead.table]: newsletterLead,
  [watchDemoLead.table]: watchDemoLead,
};
