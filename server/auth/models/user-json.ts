// The User JSON with what it lists besides the user's row (its identities and its factors), both
// read by one statement: every answer that shows a user (a sign-in, GET /user, the admin API)
// reads them.
import type { Queryable } from "../../db/database.ts";
import { listedFactorOfJson, serializeFactor } from "./factors.ts";
import { serializeUser, type IdentityRow, type UserRow } from "./users.ts";

/** What the User JSON lists besides the user's row: its identities, and its factors' JSON. */
export type UserListings = {
  identities: IdentityRow[];
  factors: ReturnType<typeof serializeFactor>[];
};

/**
 * The statement that reads the user's identities and its factors, each in the order made, the
 * user's id its first parameter (a statement's round trip costs more than the rows): the
 * identities as rows, the factors (few, most users none) as one JSON value beside them. A
 * sign-in's statement ends with it, so that the session is stored and the listings read at once.
 */
export const LISTINGS_SELECT = `SELECT i.*, f.factors FROM (
     SELECT coalesce(json_agg(m ORDER BY m.created_at), '[]') AS factors
     FROM auth.mfa_factors m WHERE m.user_id = $1
   ) f LEFT JOIN auth.identities i ON i.user_id = $1
   ORDER BY i.created_at`;

/** The rows of LISTINGS_SELECT. */
export type ListingRow = { [K in keyof IdentityRow]: IdentityRow[K] | null } & {
  factors: Record<string, unknown>[];
};

/** The listings the rows of LISTINGS_SELECT tell. */
export function listingsOfRows(rows: ListingRow[]): UserListings {
  return {
    // A user without identities (an anonymous one) reads one row of nulls beside its factors.
    identities: rows
      .filter((row) => row.id !== null)
      .map(({ factors: _, ...identity }) => identity as IdentityRow),
    factors: rows[0]!.factors.map((factor) => serializeFactor(listedFactorOfJson(factor))),
  };
}

/** The user's identities and its factors, read by one statement. */
export async function listingsOf(q: Queryable, userId: string): Promise<UserListings> {
  return listingsOfRows(await q.query<ListingRow>(LISTINGS_SELECT, [userId]));
}

/** GoTrue's User JSON of the user, its identities and factors read by one statement. */
export async function userJson(q: Queryable, user: UserRow) {
  const { identities, factors } = await listingsOf(q, user.id);
  return serializeUser(user, identities, factors);
}
