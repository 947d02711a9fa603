// Who is on the team: a person whose app_metadata.team_role is "member" or "admin". Managed only
// through the admin API (supabase-js `auth.admin`, the service-role key), so that the command
// line, the workspace and any operator's tool change members the same way: adding someone without
// an account invites them by email.
import { createClient, type User } from "@supabase/supabase-js";
import { teamRoleOf, type TeamRole } from "../../common/workspace.ts";

/** Where the admin API is, and its credential. */
export type AdminApi = { url: string; serviceRoleKey: string };

const PAGE = 1000;

const adminOf = (api: AdminApi) =>
  createClient(api.url, api.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  }).auth.admin;

/** A page of the users; `filter` (part of an address) is the admin API's own parameter. */
async function listPage(api: AdminApi, page: number, filter = ""): Promise<User[]> {
  const query = new URLSearchParams({ page: String(page), per_page: String(PAGE), filter });
  const res = await fetch(`${api.url}/auth/v1/admin/users?${query}`, {
    headers: { apikey: api.serviceRoleKey, authorization: `Bearer ${api.serviceRoleKey}` },
  });
  if (!res.ok) throw new Error(`listing users: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { users: User[] }).users;
}

/** The account with exactly this address (the listing's filter matches parts of addresses). */
async function findAccount(api: AdminApi, email: string): Promise<User | undefined> {
  const address = email.trim().toLowerCase();
  for (let page = 1; ; page++) {
    const users = await listPage(api, page, address);
    const found = users.find((u) => u.email === address);
    if (found || users.length < PAGE) return found;
  }
}

export type Change =
  | { kind: "invited"; user: User }
  | { kind: "updated"; user: User }
  | { kind: "unchanged"; user: User };

/** An account's address was confirmed: the team role applies to it (server/rest/team-access.ts). */
const confirmed = (user: User) => Boolean(user.email_confirmed_at);

/**
 * Puts the address on the team with this role. The role applies only to an account whose address
 * is proven: an address without an account is invited, and so is an account not yet confirmed,
 * which may be somebody else's sign-up with this address, or one MAILER_AUTOCONFIRM confirmed as
 * given (the admin API invites those and refuses a proven one: decision 0041). The role waits for
 * the invitation, whose use voids whatever password and sessions were made on the account before.
 */
export async function addMember(
  api: AdminApi,
  email: string,
  role: TeamRole,
  redirectTo?: string,
): Promise<Change> {
  const admin = adminOf(api);
  let user = await findAccount(api, email);
  let invited = false;
  const { data, error } = await admin.inviteUserByEmail(email.trim().toLowerCase(), {
    redirectTo,
  });
  if (!error) {
    user = data.user;
    invited = true;
  } else if (!(user && error.code === "email_exists")) throw error;
  if (teamRoleOf(user!) === role) return { kind: invited ? "invited" : "unchanged", user: user! };
  const updated = await admin.updateUserById(user!.id, { app_metadata: { team_role: role } });
  if (updated.error) throw updated.error;
  return { kind: invited ? "invited" : "updated", user: updated.data.user };
}

/** How a removal went: `formerly` when the address given is one the member used before. */
export type Removal = Change & { formerly?: string };

/**
 * Takes a member off the team (the account stays), by their address or by one they used before
 * (the member is their account, whatever its address now); their access ends at once. Undefined
 * when no account has or had the address.
 */
export async function removeMember(api: AdminApi, email: string): Promise<Removal | undefined> {
  const address = email.trim().toLowerCase();
  const current = await findAccount(api, address);
  if (current && teamRoleOf(current)) return takeRole(api, current);
  const former = await formerOwners(api, address);
  const formerMember = former.find((u) => teamRoleOf(u));
  if (formerMember) return { ...(await takeRole(api, formerMember)), formerly: address };
  if (current) return { kind: "unchanged", user: current };
  return former[0] && { kind: "unchanged", user: former[0], formerly: address };
}

async function takeRole(api: AdminApi, user: User): Promise<Change> {
  const { data, error } = await adminOf(api).updateUserById(user.id, {
    app_metadata: { team_role: null },
  });
  if (error) throw error;
  return { kind: "updated", user: data.user };
}

/** The accounts that had this address before their current one (the admin API's former_email). */
async function formerOwners(api: AdminApi, address: string): Promise<User[]> {
  const query = new URLSearchParams({ former_email: address });
  const res = await fetch(`${api.url}/auth/v1/admin/users?${query}`, {
    headers: { apikey: api.serviceRoleKey, authorization: `Bearer ${api.serviceRoleKey}` },
  });
  if (!res.ok) throw new Error(`listing users: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { users: User[] }).users;
}

/** A member: their current address, role, and whether the role applies yet (a confirmed account). */
export type Member = { email: string; role: TeamRole; confirmed: boolean };

/** Everyone on the team, by current address. */
export async function listMembers(api: AdminApi): Promise<Member[]> {
  const members: Member[] = [];
  for (let page = 1; ; page++) {
    const users = await listPage(api, page);
    for (const user of users) {
      const role = teamRoleOf(user);
      if (role) members.push({ email: user.email ?? "", role, confirmed: confirmed(user) });
    }
    if (users.length < PAGE) break;
  }
  return members.sort((a, b) => a.email.localeCompare(b.email));
}

/**
 * Resets the account's second factor (a lost phone): every factor and recovery code goes, and its
 * sessions end; the person signs in again and sets one up anew. Undefined when it has no account;
 * else how many factors went.
 */
export async function resetFactors(
  api: AdminApi,
  email: string,
): Promise<{ factors: number } | undefined> {
  const user = await findAccount(api, email);
  if (!user) return undefined;
  const res = await fetch(`${api.url}/auth/v1/admin/users/${user.id}/factors`, {
    method: "DELETE",
    headers: { apikey: api.serviceRoleKey, authorization: `Bearer ${api.serviceRoleKey}` },
  });
  if (!res.ok) throw new Error(`resetting factors: ${res.status} ${await res.text()}`);
  return { factors: ((await res.json()) as unknown[]).length };
}
