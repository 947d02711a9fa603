// The Security tab's data: a row of the `audit_log` view, its filters (the list and the CSV share
// them), and the detail of an event in words, from what the server kept with it (its traits).
import type { AuditAction } from "../../common/audit.ts";
import { auditActionLabels, securityLog } from "../content/team.ts";
import { inDays, searched, type Query } from "./team-data.ts";

export type AuditRow = {
  id: string;
  created_at: string;
  action: string;
  log_type: string;
  actor: string;
  ip_address: string;
  user_agent: string;
  traits: Record<string, unknown> | null;
};

export const AUDIT_COLUMNS = "id,created_at,action,log_type,actor,ip_address,user_agent,traits";

export type AuditFilters = { type: string; from: string; to: string; person: string };
export const NO_AUDIT_FILTERS: AuditFilters = { type: "", from: "", to: "", person: "" };

/** The filters on any query of the `audit_log` view. */
export function filterAudit(query: Query, f: AuditFilters): Query {
  return searched(inDays(f.type ? query.eq("log_type", f.type) : query, f), "actor", f.person);
}

/** The event's name, or the server's own word for one this page does not know yet. */
export const actionLabel = (action: string) =>
  Object.hasOwn(auditActionLabels, action) ? auditActionLabels[action as AuditAction] : action;

/** Who did it: the person's address or number, or the operator's key. */
export const actorLabel = (actor: string) =>
  actor === "service_role" ? securityLog.operator : actor || "Unknown";

const SIGN_IN_METHODS: Record<string, string> = {
  password: "With a password",
  otp: "With an email link or code",
  magiclink: "With an email link",
  recovery: "With a password reset link",
  anonymous: "As a guest",
  passkey: "With a passkey",
  email: "Email address",
  phone: "Phone number",
};

const REFUSALS: Record<string, string> = {
  invalid_credentials: "Wrong password, or no account with this address",
  email_not_confirmed: "Email address not confirmed yet",
  phone_not_confirmed: "Phone number not confirmed yet",
  user_banned: "The account is suspended",
};

const SCOPES: Record<string, string> = {
  local: "This device",
  others: "Every other device",
  global: "Every device",
};

const FACTORS: Record<string, string> = {
  totp: "Authenticator app",
  phone: "Text message",
  webauthn: "Security key",
};

const EXPORTS: Record<string, string> = {
  leads: "Leads",
  emails: "Emails",
  subscribers: "Subscribers",
  webhook_deliveries: "Webhook deliveries",
  audit_log: "Security log",
};

const text = (value: unknown) => (typeof value === "string" ? value : "");
const named = (table: Record<string, string>, value: unknown) => table[text(value)] ?? text(value);

/** What else there is to say of an event, in a few words ("" when its name says it all). */
export function eventDetail(row: Pick<AuditRow, "action" | "traits">): string {
  const t = row.traits ?? {};
  const target = text(t.user_email) || text(t.user_phone);
  switch (row.action) {
    case "login":
    case "user_signedup":
    case "user_confirmation_requested":
      return target ? `For ${target}` : named(SIGN_IN_METHODS, t.provider);
    case "login_failed":
      return named(REFUSALS, t.error_code);
    case "logout":
      return named(SCOPES, t.scope);
    case "verification_attempted":
      if (t.factor_type === "webauthn")
        return `${named(FACTORS, t.factor_type)}: ${t.verified ? "accepted" : "refused"}`;
      return `${named(FACTORS, t.factor_type)}: ${t.verified ? "correct code" : "wrong code"}`;
    case "factor_in_progress":
    case "factor_unenrolled":
      return named(FACTORS, t.factor_type);
    case "user_modified":
      if (target) return `For ${target}`;
      if (t.email_changed) return "Email address changed";
      if (t.phone_changed) return "Phone number changed";
      return Array.isArray(t.fields) ? `Asked to change: ${t.fields.join(", ")}` : "";
    case "team_role_granted":
      return `${target} as ${text(t.role)}`;
    case "team_role_removed":
      return `${target} (was ${text(t.role)})`;
    case "webhook_endpoint_added":
    case "webhook_endpoint_removed":
      return text(t.endpoint_url);
    case "webhook_endpoint_changed":
      return `${text(t.endpoint_url)}${Array.isArray(t.changed) ? ` (${t.changed.join(", ")})` : ""}`;
    case "csv_exported":
      return named(EXPORTS, t.relation);
    case "user_deleted":
      return t.by === "self" ? "By the account's owner" : `For ${target}`;
    case "identity_linked":
    case "identity_unlinked":
      return named(SIGN_IN_METHODS, t.provider);
    default:
      return target ? `For ${target}` : "";
  }
}
