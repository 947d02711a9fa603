// The team workspace's words: its sections, the forms' and states' names as the team reads them.
import type { LeadKindName, LeadStatus } from "../../common/workspace.ts";

export const workspaceTabs = [
  { id: "inbox", label: "Inbox" },
  { id: "emails", label: "Emails" },
  { id: "subscribers", label: "Subscribers" },
  { id: "webhooks", label: "Webhooks" },
  { id: "analytics", label: "Analytics" },
] as const;
export type WorkspaceTab = (typeof workspaceTabs)[number]["id"];

export const leadKindLabels: Record<LeadKindName, string> = {
  newsletter: "Newsletter",
  watch_demo: "Watch Demo",
  request_access: "Request Access",
  contact: "Contact",
  request_demo: "Request Demo",
};

export const leadStatusLabels: Record<LeadStatus, string> = {
  new: "New",
  contacted: "Contacted",
  qualified: "Qualified",
  closed: "Closed",
};

export const emailStatusLabels = { queued: "Queued", sent: "Sent", failed: "Failed" } as const;

export const subscriberStatusLabels = {
  pending: "Pending confirmation",
  subscribed: "Subscribed",
  unsubscribed: "Unsubscribed",
} as const;

export const deliveryStatusLabels = {
  pending: "Pending",
  delivered: "Delivered",
  failed: "Failed",
} as const;

/** A record's labels as the options of a filter. */
export const optionsOf = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));
