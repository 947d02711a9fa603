// A second factor reset (a lost phone; decision 0038): every factor of the user and their
// recovery codes go, and so do their sessions: the person signs in again and sets a second factor
// up anew. The admin API and a team admin in the workspace reset through this one function.
import type { Queryable } from "../../db/database.ts";
import { deleteFactor, listFactors, type FactorRow } from "./factors.ts";
import { deleteRecoveryCodes } from "./recovery-codes.ts";
import { endAllSessions } from "./sessions.ts";

/** Resets the user's second factors, in the caller's transaction; the factors that went. */
export async function resetSecondFactors(q: Queryable, userId: string): Promise<FactorRow[]> {
  const factors = await listFactors(q, userId);
  for (const factor of factors) await deleteFactor(q, factor);
  await deleteRecoveryCodes(q, userId);
  await endAllSessions(q, userId);
  return factors;
}
