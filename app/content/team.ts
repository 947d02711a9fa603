// The team workspace's words: its sections, the forms' and states' names as the team reads them.
import type { AuditAction, LogType } from "../../common/audit.ts";
import type { LeadKindName, LeadStatus } from "../../common/workspace.ts";

export const workspaceTabs = [
  { id: "inbox", label: "Inbox" },
  { id: "emails", label: "Emails" },
  { id: "subscribers", label: "Subscribers" },
  { id: "webhooks", label: "Webhooks" },
  { id: "analytics", label: "Analytics" },
  // Shown to the team's admins only; the server refuses its data to anyone else.
  { id: "security", label: "Security", adminOnly: true },
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

/** The inbox's list: its things' names, its table's caption, what it says with no match. */
export const inboxList = {
  noun: ["lead", "leads"],
  caption: "Leads, newest first",
  empty: "No leads match these filters.",
} as const;

/** A record's labels as the options of a filter. */
export const optionsOf = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

/** The Security tab's words: what the log holds, how long, and each event's name. */
export const securityLog = {
  title: "Security log",
  intro:
    "Every sign-in and refused sign-in, every change to an account or its two-step verification, and every change to the workspace's settings, with who did it, from which IP address and browser, and when. Entries are kept for 12 months.",
  search: "Search by email address or phone number",
  noun: ["event", "events"],
  caption: "Security events, newest first",
  empty: "No events match these filters.",
  /** Who the service-role key is, where an entry names it. */
  operator: "Operator (service key)",
} as const;

export const logTypeLabels: Record<LogType, string> = {
  account: "Sign-ins and sign-outs",
  user: "Account changes",
  factor: "Two-step verification",
  token: "Sessions ended for safety",
  team: "Accounts created or deleted",
  workspace: "Workspace settings",
};

export const auditActionLabels: Record<AuditAction, string> = {
  login: "Signed in",
  login_failed: "Sign-in refused",
  logout: "Signed out",
  invite_accepted: "Accepted an invitation",
  user_signedup: "Account created",
  user_invited: "Invited by email",
  user_deleted: "Account deleted",
  token_revoked: "Session ended: an old sign-in token was used again",
  user_modified: "Account details changed",
  user_confirmation_requested: "Confirmation email sent",
  user_repeated_signup: "Tried to sign up again with an existing account",
  user_updated_password: "Password changed",
  identity_linked: "Sign-in method added",
  identity_unlinked: "Sign-in method removed",
  factor_in_progress: "Two-step verification: setup started",
  factor_unenrolled: "Two-step verification removed",
  verification_attempted: "Two-step code entered",
  factor_deleted: "Two-step verification reset by an operator",
  team_role_granted: "Team role given",
  team_role_removed: "Team role taken away",
  webhook_endpoint_added: "Webhook endpoint added",
  webhook_endpoint_changed: "Webhook endpoint changed",
  webhook_endpoint_removed: "Webhook endpoint removed",
  webhook_delivery_resent: "Webhook delivery sent again",
  csv_exported: "Exported as CSV",
  newsletter_issue_scheduled: "Newsletter issue scheduled to send",
  newsletter_issue_unscheduled: "Newsletter issue taken back to a draft",
  newsletter_subscriber_unsubscribed: "Newsletter subscriber unsubscribed by the team",
  newsletter_subscriber_deleted: "Newsletter subscriber deleted on request",
};
