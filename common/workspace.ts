// The team workspace's vocabulary, shared by the server that stores it and the page that shows it:
// the five forms' names as the `leads` view's `kind` says them, a lead's follow-up statuses, the
// team's roles, and an admin's invitation.
import "./zod-config.ts";
import { z } from "zod";
import { emailField } from "./leads.ts";
import { storableString } from "./storable-text.ts";

/**
 * The forms' names (`LeadKind.name`) in table order: the `kind` of the `leads` view and of
 * webhook events (server/leads/kinds.test.ts checks them against the kinds).
 */
export const LEAD_KINDS = [
  "newsletter",
  "watch_demo",
  "request_access",
  "contact",
  "request_demo",
] as const;
export type LeadKindName = (typeof LEAD_KINDS)[number];

/**
 * Where the team is with a lead (`lead_states.status`); a lead nobody touched is `new`. A `lost`
 * lead has a reason; `junk` leaves the inbox, the CSV and the conversion figures unless asked for.
 */
export const LEAD_STATUSES = ["new", "contacted", "qualified", "won", "lost", "junk"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** The forms' names as the team reads them: in the workspace and in the CSV export. */
export const leadKindLabels: Record<LeadKindName, string> = {
  newsletter: "Newsletter",
  watch_demo: "Watch Demo",
  request_access: "Request Access",
  contact: "Contact",
  request_demo: "Request Demo",
};

/** The statuses' names as the team reads them: in the workspace and in the CSV export. */
export const leadStatusLabels: Record<LeadStatus, string> = {
  new: "New",
  contacted: "Contacted",
  qualified: "Qualified",
  won: "Won",
  lost: "Lost",
  junk: "Junk",
};

/** What a note of a lead's timeline records (`lead_notes.type`). */
export const NOTE_TYPES = ["note", "call", "email"] as const;
export type NoteType = (typeof NOTE_TYPES)[number];

/** Who is on the team: `app_metadata.team_role` is one of these (set through the admin API). */
export const TEAM_ROLES = ["member", "admin"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const teamRoleOf = (user: {
  app_metadata?: Record<string, unknown>;
}): TeamRole | undefined =>
  (TEAM_ROLES as readonly unknown[]).includes(user.app_metadata?.team_role)
    ? (user.app_metadata!.team_role as TeamRole)
    : undefined;

/** The team's work on a lead as stored (`lead_states`): each null when unset. */
export type LeadWork = {
  status: LeadStatus;
  lost_reason: string | null;
  owner_id: string | null;
  next_step: string | null;
  due_on: string | null;
};

/** A change of a lead's work as the Follow-up form sends it (an upsert of `lead_states`). */
export type LeadWorkChange = { kind: string; lead_id: string } & Partial<LeadWork>;

/** The longest note an admin's invitation carries (why the person is invited). */
export const INVITE_NOTE_MAX = 500;

/** Whether the runtime knows this IANA time zone (Intl refuses an unknown one). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * The team's settings an admin changes (`team_settings`): its time zone, which the team's emails
 * say times in and which says the day of each member's due-leads email.
 */
export const teamSettingsSchema = z.object({
  time_zone: z
    .string({ error: "Please choose a time zone" })
    .trim()
    .max(64, "Please choose a time zone from the list")
    .refine(isTimeZone, "Please choose a time zone from the list"),
});

/** An admin's invitation to the team: the address, its role, and a note on why (optional). */
export const teamInviteSchema = z.object({
  email: emailField("Please enter a valid email address"),
  role: z.enum(TEAM_ROLES, { error: "Please choose a role" }),
  note: storableString()
    .trim()
    .max(INVITE_NOTE_MAX, `Please keep the note to ${INVITE_NOTE_MAX} characters or fewer`)
    .optional()
    .default(""),
});
export type TeamInviteInput = z.input<typeof teamInviteSchema>;

/**
 * What the Follow-up form sends for a lead: only the parts the member changed from the values
 * loaded with the lead (the status with its reason, the owner, the next step with its due date),
 * so two members saving the same lead at once each change their own part and undo nothing of the
 * other's; null when nothing changed (nothing is sent). Texts are kept trimmed; an empty one is
 * none, and a reason goes only with `lost`.
 */
export function followUpChange(
  loaded: { kind: string; id: string } & LeadWork,
  edited: {
    status: LeadStatus;
    lost_reason: string;
    owner_id: string;
    next_step: string;
    due_on: string;
  },
): LeadWorkChange | null {
  const text = (value: string | null) => value?.trim() || null;
  const lostReason = edited.status === "lost" ? text(edited.lost_reason) : null;
  const [nextStep, dueOn] = [text(edited.next_step), text(edited.due_on)];
  const change = {
    ...((edited.status !== loaded.status || lostReason !== text(loaded.lost_reason)) && {
      status: edited.status,
      ...(edited.status === "lost" && { lost_reason: lostReason }),
    }),
    ...((text(edited.owner_id) ?? null) !== loaded.owner_id && { owner_id: text(edited.owner_id) }),
    ...((nextStep !== text(loaded.next_step) || dueOn !== loaded.due_on) && {
      next_step: nextStep,
      due_on: dueOn,
    }),
  };
  return Object.keys(change).length ? { kind: loaded.kind, lead_id: loaded.id, ...change } : null;
}

/**
 * A source's figures over a range (`source_stats`): the referring site's host and the UTM source,
 * medium and campaign of its visitors' first views ("" for none), the views of those visits, the
 * visitors, and those of them who sent a form (counted visitors only: at most `visitors`).
 */
export type SourceStat = {
  referrer: string;
  source: string;
  medium: string;
  campaign: string;
  views: number;
  visitors: number;
  leads: number;
};
