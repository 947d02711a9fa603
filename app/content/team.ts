// The team workspace's words: its sections, the forms' and states' names as the team reads them.
import type { AuditAction, LogType } from "../../common/audit.ts";
import {
  leadStatusLabels,
  type LeadStatus,
  type NoteType,
  type TeamRole,
} from "../../common/workspace.ts";

export const workspaceTabs = [
  { id: "inbox", label: "Inbox" },
  { id: "people", label: "People" },
  { id: "emails", label: "Emails" },
  { id: "subscribers", label: "Subscribers" },
  { id: "newsletter", label: "Newsletter" },
  { id: "webhooks", label: "Webhooks" },
  { id: "analytics", label: "Analytics" },
  // Shown to the team's admins only; the server refuses their data to anyone else.
  { id: "team", label: "Team", adminOnly: true },
  { id: "security", label: "Security", adminOnly: true },
] as const;
export type WorkspaceTab = (typeof workspaceTabs)[number]["id"];

export const noteTypeLabels: Record<NoteType, string> = {
  note: "Note",
  call: "Call logged",
  email: "Email sent",
};

/** A lead's Follow-up form and timeline: its fields and what they say. */
export const followUp = {
  title: "Follow-up",
  status: "Status",
  lostReason: "Why it was lost",
  lostReasonHint: "Required for a lost lead, for instance “Chose another tool”.",
  owner: "Owner",
  noOwner: "Nobody",
  nextStep: "Next step",
  nextStepHint: "What happens next, for instance “Send the pricing sheet”.",
  dueOn: "Due date",
  nextStepNeedsDate: "Give the next step a due date, or clear both.",
  save: "Save",
  saved: "Lead saved",
  nothing: {
    title: "Nothing to save",
    description: "The status, owner and next step are unchanged.",
  },
  timeline: "Timeline",
  timelineCaption: "Notes, calls, emails and changes, newest first",
  addTitle: "Add to the timeline",
  addType: "What happened",
  addBody: "Note",
  addBodyHint: "Only the team sees it. A note is added to the timeline; nothing is overwritten.",
  add: "Add",
  added: "Added to the timeline",
  emptyTimeline: "Nothing has happened with this lead yet.",
  leadNavigation: "Leads",
  previousLead: "← Previous lead",
  nextLead: "Next lead →",
} as const;

/** What a change of a lead's work changed (`fields`), with the new values. */
export type LeadChange = {
  fields: readonly string[];
  status: string | null;
  lost_reason: string | null;
  owner_email: string | null;
  next_step: string | null;
  due_on: string | null;
  note: string | null;
};

/**
 * One change of a lead's history in words ("changed the status to Lost: Chose another tool"),
 * each part of what it changed; `previous` is the lead's status before it.
 */
export function changeWords(
  change: LeadChange,
  previous: string,
  day: (isoDay: string) => string,
): string[] {
  const label = (status: string | null) =>
    leadStatusLabels[status as LeadStatus] ?? status ?? "New";
  return change.fields.map((field) => {
    switch (field) {
      case "status":
        return `changed the status from ${label(previous)} to ${label(change.status)}${
          change.status === "lost" && change.lost_reason ? `: ${change.lost_reason}` : ""
        }`;
      case "owner_id":
        return change.owner_email ? `made ${change.owner_email} the owner` : "removed the owner";
      case "next_step":
        return change.next_step
          ? `set the next step “${change.next_step}”, due ${day(change.due_on ?? "")}`
          : "cleared the next step";
      default:
        return change.note ? `wrote the note “${change.note}”` : "removed the note";
    }
  });
}

export const emailStatusLabels = { queued: "Queued", sent: "Sent", failed: "Failed" } as const;

/** Why an address gets no more issues. */
export const unsubscribeReasonLabels = {
  unsubscribed: "by its link",
  team: "by the team",
  bounced: "bounced",
  complained: "marked as spam",
} as const;

/** The Newsletter tab's words. */
export const newsletterCopy = {
  title: "Newsletter issues",
  caption: "Newsletter issues, newest first",
  empty: "No issue yet. Write the first one.",
  newIssue: "New issue",
  issue: "Issue",
  back: "Back to the issues",
  archive: "The archive on the site",
  onTheSite: "See it on the site",
  markdownHelp:
    "Markdown: ## for a heading, **bold**, - for a list, [text](https://…) for a link. HTML is shown as text.",
  save: "Save draft",
  saved: { title: "Draft saved", description: "Only the team sees it until it is sent." },
  preview: "Preview",
  previewHeading: "Preview: the email a subscriber receives",
  sendTest: "Send a test to me",
  testSent: {
    title: "Test sent",
    description: "A copy marked [Test] is on its way to your address.",
  },
  sendHeading: "Send",
  schedule: "Schedule",
  scheduled: {
    title: "Issue scheduled",
    description: "It goes to every confirmed subscriber at the time you chose.",
  },
  sendNow: "Send now…",
  confirmSend:
    "Send this issue to every confirmed subscriber now? Once it starts it cannot be changed or stopped.",
  sendNowConfirmed: "Yes, send it now",
  cancel: "Cancel",
  sending: {
    title: "Sending",
    description: "Copies go out at the configured rate; the figures fill in as they do.",
  },
  unschedule: "Back to draft",
  unscheduled: { title: "Back to draft", description: "It will not be sent until scheduled." },
};

export const issueStatusLabels = {
  draft: "Draft",
  scheduled: "Scheduled",
  sending: "Sending",
  sent: "Sent",
} as const;

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

/** The People tab: one row per address, with their entries. */
export const peopleList = {
  title: "People",
  search: "Search by email address",
  noun: ["person", "people"],
  caption: "People, latest activity first",
  empty: "No people match this search.",
  entries: "Entries",
  latest: "Latest entry",
  when: "Latest activity",
  others: "Other entries from this person",
  noOthers: "This is their only entry.",
} as const;

/**
 * The inbox's CSV: one column per field, headed by the form's own label (the forms' other fields
 * read out of `details`), in PostgREST's select. No internal id; one row per form entry.
 */
export const leadCsvColumns = (
  [
    ["Received", "created_at"],
    ["Form", "form"],
    ["Name", "name"],
    ["Email", "email"],
    ["Company", "company"],
    ["Phone", "details->>phone"],
    ["Message", "details->>message"],
    ["Company size", "details->>company_size"],
    ["Department", "details->>department"],
    ["Position", "details->>position"],
    ["Website", "details->>website"],
    ["Status", "status_word"],
    ["Why it was lost", "lost_reason"],
    ["Owner", "owner_email"],
    ["Next step", "next_step"],
    ["Due date", "due_on"],
    ["Page", "page"],
    ["Referrer", "referrer"],
    ["UTM source", "utm_source"],
    ["UTM medium", "utm_medium"],
    ["UTM campaign", "utm_campaign"],
  ] as const
)
  .map(([label, column]) => `"${label}":${column}`)
  .join(",");

/** The inbox's own words beside its list. */
export const inboxWords = {
  anyStatus: "All but junk",
  owner: "Owner",
  anyOwner: "Anyone",
  mine: "My leads",
  due: "Next step due",
  overdue: "overdue",
  arrived: (n: number) => (n === 1 ? "1 new lead arrived." : `${number(n)} new leads arrived.`),
  showArrived: "Show them",
} as const;

/** The page's title with the count of leads still new: "(3) Team workspace". */
export const titleWithNewLeads = (title: string, n: number) =>
  n > 0 ? `(${number(n)}) ${title}` : title;

/** The Inbox tab with the count of leads still new: "Inbox (3)". */
export const tabWithNewLeads = (label: string, n: number) =>
  n > 0 ? `${label} (${number(n)})` : label;

const number = (n: number) => n.toLocaleString("en-US");

/** A record's labels as the options of a filter. */
export const optionsOf = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

export const teamRoleLabels: Record<TeamRole, string> = { member: "Member", admin: "Admin" };

/** The Team tab's words: who is on the team, the invitation form, and each change's outcome. */
export const teamTab = {
  title: "Team",
  intro:
    "The people who work with the leads here. An invitation is emailed from the website with your address and your note, and works for 7 days; the person has access once they accept it and set up an authenticator app. Every change is recorded in the Security log.",
  invite: {
    title: "Invite someone",
    email: "Email address",
    role: "Role",
    roleHelp: "Admins also manage the team, webhooks and the Security log.",
    note: "Why you're inviting them",
    noteHelp: "Shown in the invitation email, up to 500 characters.",
    submit: "Send invitation",
    sending: "Sending...",
    sent: "Invitation sent",
    already: "is already on the team: change their role in the list below.",
  },
  caption: "Team members, by email address",
  /** The list's count, read out when it changes. */
  count: (people: number, invited: number) =>
    `${people} ${people === 1 ? "person" : "people"} on the team${invited ? `, ${invited} of them invited and not yet in` : ""}`,
  empty: "Nobody is on the team yet.",
  you: "(you)",
  active: "Active",
  invitedUntil: "Invited, until",
  expired: "Invitation expired",
  twoStepOn: "Authenticator app set up",
  twoStepOff: "No authenticator app yet",
  resetDone: "Two-step verification reset",
  resetDoneDetail:
    "is signed out everywhere and sets up an authenticator app again on their next visit.",
  removed: "Taken off the team",
  removedDetail: "no longer has access to the workspace; their account stays.",
  roleChanged: "Role changed",
} as const;

/** The Team tab's time zone: the one the team's emails say times in. */
export const teamTimeZoneCopy = {
  title: "Team time zone",
  label: "Time zone",
  help: "The team's emails say when each lead came in this time zone, and each member's daily email of due leads goes out at 8 in the morning here.",
  submit: "Save time zone",
  saving: "Saving...",
  saved: "Time zone saved",
} as const;

/** The analytics' Sources: where each day's visitors came from, and which of them sent a form. */
export const sourcesCopy = {
  title: "Sources",
  intro:
    "Each visitor's day is counted under the site that linked to their first page and the campaign tags (utm_source, utm_medium, utm_campaign) of its address. Leads are the counted visitors who sent a form that is not junk, so conversion never exceeds 100 %; people who asked not to be counted are in neither figure.",
  pages:
    "A page's leads are every form sent from it, junk left out. Its conversion is of its counted visitors who sent a form from it, so it never exceeds 100 %.",
  caption: "Sources by visitors over the range",
  empty: "No visits counted in this range.",
  noReferrer: "No referring site",
} as const;

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
  passkey_created: "Passkey added",
  passkey_updated: "Passkey renamed",
  passkey_deleted: "Passkey removed",
  factor_in_progress: "Two-step verification: setup started",
  factor_unenrolled: "Two-step verification removed",
  verification_attempted: "Two-step code entered",
  factor_deleted: "Two-step verification reset",
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
  team_time_zone_changed: "Team time zone changed",
};
