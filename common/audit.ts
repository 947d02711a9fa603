// The audit log's actions and the log type of each, read by the server (which writes them) and
// the workspace's Security tab (which names them).

/**
 * Every action and its log type: GoTrue's names for the auth events (models/audit_log_entry.go),
 * then ours: a refused sign-in ("login_failed"), and the workspace's own events ("workspace").
 */
export const LOG_TYPES = {
  login: "account",
  login_failed: "account",
  logout: "account",
  invite_accepted: "account",
  user_signedup: "team",
  user_invited: "team",
  user_deleted: "team",
  token_revoked: "token",
  user_modified: "user",
  user_confirmation_requested: "user",
  user_repeated_signup: "user",
  user_updated_password: "user",
  identity_linked: "user",
  identity_unlinked: "user",
  passkey_created: "user",
  passkey_updated: "user",
  passkey_deleted: "user",
  factor_in_progress: "factor",
  factor_unenrolled: "factor",
  verification_attempted: "factor",
  factor_deleted: "factor",
  team_role_granted: "workspace",
  team_role_removed: "workspace",
  webhook_endpoint_added: "workspace",
  webhook_endpoint_changed: "workspace",
  webhook_endpoint_removed: "workspace",
  webhook_delivery_resent: "workspace",
  csv_exported: "workspace",
  newsletter_issue_scheduled: "workspace",
  newsletter_issue_unscheduled: "workspace",
  newsletter_subscriber_unsubscribed: "workspace",
  newsletter_subscriber_deleted: "workspace",
  team_time_zone_changed: "workspace",
} as const;

export type AuditAction = keyof typeof LOG_TYPES;

export type LogType = (typeof LOG_TYPES)[AuditAction];
