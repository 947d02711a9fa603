// Who may see the team workspace, read in the browser: nobody signed in, someone not on the team
// (`app_metadata.team_role`, as the server knows it now), a member whose session still owes the
// authenticator app's code or the security key, a member without an app (set one up first), or a member on aal2.
// The server checks the same on every request; this only decides what the page asks for.
import {
  teamRoleOf,
  type TeamRole,
  leadKindLabels,
  leadStatusLabels,
} from "../../common/workspace.ts";
import { workspaceTabs, type WorkspaceTab } from "../content/team.ts";
import { currentUser, verifiedSecondFactor } from "./account.ts";
import { getSupabase } from "./supabase.ts";
import { NO_LEAD_FILTERS, type LeadFilters } from "./team-data.ts";

export type TeamGate =
  | { step: "anonymous" }
  | { step: "outsider"; email: string }
  | { step: "code"; email: string; factorId: string; securityKey: boolean }
  | { step: "enrol"; email: string }
  | { step: "ready"; email: string; role: TeamRole; userId: string };

export async function teamGate(): Promise<TeamGate> {
  const user = await currentUser();
  if (!user) return { step: "anonymous" };
  const email = user.email ?? "";
  const role = teamRoleOf(user);
  if (!role) return { step: "outsider", email };
  const supabase = await getSupabase();
  const { data } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
  if (data?.currentLevel === "aal2") return { step: "ready", email, role, userId: user.id };
  const factor = await verifiedSecondFactor(supabase);
  return factor
    ? { step: "code", email, factorId: factor.id, securityKey: factor.securityKey }
    : { step: "enrol", email };
}

/**
 * The workspace's place in the URL's fragment, so a reload or a shared link keeps it: `#emails`,
 * `#inbox/lead/<id>` for one lead's detail, and the inbox's filters after a `?`
 * (`#inbox?kind=contact&q=harbor`, kept while a lead is open). Anything else is the inbox;
 * a filter value the inbox does not offer is dropped.
 */
export type WorkspacePlace = { tab: WorkspaceTab; lead?: string; filters?: LeadFilters };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FILTER_CHECKS: Record<keyof LeadFilters, (value: string) => boolean> = {
  kind: (v) => Object.hasOwn(leadKindLabels, v),
  status: (v) => Object.hasOwn(leadStatusLabels, v),
  owner: (v) => UUID.test(v),
  from: (v) => DAY.test(v),
  to: (v) => DAY.test(v),
  q: (v) => v.length <= 200,
};

export function placeOf(hash: string): WorkspacePlace {
  const [path = "", query = ""] = hash.replace(/^#/, "").split("?");
  const [tab, kind, id] = path.split("/");
  const known = workspaceTabs.find((t) => t.id === tab)?.id ?? "inbox";
  if (known !== "inbox") return { tab: known };
  const params = new URLSearchParams(query);
  const filters = { ...NO_LEAD_FILTERS };
  for (const key of Object.keys(FILTER_CHECKS) as (keyof LeadFilters)[]) {
    const value = params.get(key) ?? "";
    if (value && FILTER_CHECKS[key](value)) filters[key] = value;
  }
  return {
    tab: known,
    ...(kind === "lead" && id ? { lead: id } : {}),
    ...(Object.values(filters).some(Boolean) ? { filters } : {}),
  };
}

export function hashOf(place: WorkspacePlace): string {
  const set = Object.entries(place.filters ?? {}).filter(([, value]) => value);
  const query = set.length ? `?${new URLSearchParams(set).toString()}` : "";
  return `#${place.tab}${place.lead ? `/lead/${place.lead}` : ""}${query}`;
}
