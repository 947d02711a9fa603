// The team workspace's vocabulary, shared by the server that stores it and the page that shows it:
// the five forms' names as the `leads` view's `kind` says them, a lead's follow-up statuses, and
// the team's roles.

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

/** Where the team is with a lead (`lead_states.status`); a lead nobody touched is `new`. */
export const LEAD_STATUSES = ["new", "contacted", "qualified", "closed"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** Who is on the team: `app_metadata.team_role` is one of these (set through the admin API). */
export const TEAM_ROLES = ["member", "admin"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const teamRoleOf = (user: {
  app_metadata?: Record<string, unknown>;
}): TeamRole | undefined =>
  (TEAM_ROLES as readonly unknown[]).includes(user.app_metadata?.team_role)
    ? (user.app_metadata!.team_role as TeamRole)
    : undefined;

/**
 * What the Follow-up form sends for a lead (an upsert of `lead_states`): only the fields the member
 * changed from the values loaded with the lead, so two members saving the same lead at once each
 * change their own field and undo nothing of the other's; null when nothing changed (nothing is
 * sent). A note is kept trimmed, and an empty one is no note.
 */
export function followUpChange(
  loaded: { kind: string; id: string; status: LeadStatus; note: string | null },
  edited: { status: LeadStatus; note: string },
): { kind: string; lead_id: string; status?: LeadStatus; note?: string | null } | null {
  const note = edited.note.trim() || null;
  const change = {
    ...(edited.status !== loaded.status && { status: edited.status }),
    ...(note !== (loaded.note?.trim() || null) && { note }),
  };
  return Object.keys(change).length ? { kind: loaded.kind, lead_id: loaded.id, ...change } : null;
}
