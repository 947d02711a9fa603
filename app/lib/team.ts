// Who may see the team workspace, read in the browser: nobody signed in, someone not on the team
// (`app_metadata.team_role`, as the server knows it now), a member whose session still owes the
// authenticator app's code, a member without an app (set one up first), or a member on aal2.
// The server checks the same on every request; this only decides what the page asks for.
import { teamRoleOf, type TeamRole } from "../../common/workspace.ts";
import { workspaceTabs, type WorkspaceTab } from "../content/team.ts";
import { currentUser, verifiedTotpFactor } from "./account.ts";
import { getSupabase } from "./supabase.ts";

export type TeamGate =
  | { step: "anonymous" }
  | { step: "outsider"; email: string }
  | { step: "code"; email: string; factorId: string }
  | { step: "enrol"; email: string }
  | { step: "ready"; email: string; role: TeamRole };

export async function teamGate(): Promise<TeamGate> {
  const user = await currentUser();
  if (!user) return { step: "anonymous" };
  const email = user.email ?? "";
  const role = teamRoleOf(user);
  if (!role) return { step: "outsider", email };
  const supabase = await getSupabase();
  const { data } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
  if (data?.currentLevel === "aal2") return { step: "ready", email, role };
  const factor = await verifiedTotpFactor(supabase);
  return factor ? { step: "code", email, factorId: factor.id } : { step: "enrol", email };
}

/**
 * The workspace's place in the URL's fragment, so a reload or a shared link keeps it: `#emails`,
 * `#inbox/lead/<id>` for one lead's detail. Anything else is the inbox.
 */
export type WorkspacePlace = { tab: WorkspaceTab; lead?: string };

export function placeOf(hash: string): WorkspacePlace {
  const [tab, kind, id] = hash.replace(/^#/, "").split("/");
  const known = workspaceTabs.find((t) => t.id === tab)?.id ?? "inbox";
  return known === "inbox" && kind === "lead" && id ? { tab: known, lead: id } : { tab: known };
}

export const hashOf = (place: WorkspacePlace) =>
  `#${place.tab}${place.lead ? `/lead/${place.lead}` : ""}`;
