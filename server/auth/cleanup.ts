// What sign-ins leave behind and nothing reads after a while, deleted as GoTrue's cleanup does
// (internal/models/cleanup.go): PKCE flow states a day old, passkey challenges past their time
// (GoTrue deletes them as they are taken; an abandoned one would stay), OAuth authorization
// requests a day past their time, and, while anonymous sign-ins are
// on, anonymous users 30 days old. Without it each unexchanged link request and each anonymous
// sign-in (30 an hour per client address) would keep a row for good. Run hourly by every
// instance (platform/retention.ts); two runs at once delete each row once.
import type { Queryable } from "../db/database.ts";
import { inBatches } from "../platform/retention.ts";
import { deleteStaleFlowStates } from "./models/flow-states.ts";
import { deleteExpiredPasskeyChallenges } from "./models/passkeys.ts";
import { deleteStaleAuthorizations } from "./models/oauth-authorizations.ts";
import { deleteOldAnonymousUsers } from "./models/users.ts";

/** Deletes what is due at `at`; how many rows went. */
export async function cleanUpSignIns(
  q: Queryable,
  opts: { anonymousEnabled: boolean },
  at = new Date(),
): Promise<number> {
  let deleted = await inBatches((limit) => deleteStaleFlowStates(q, limit, at));
  deleted += await inBatches((limit) => deleteExpiredPasskeyChallenges(q, limit, at));
  deleted += await inBatches((limit) => deleteStaleAuthorizations(q, limit, at));
  if (opts.anonymousEnabled)
    deleted += await inBatches((limit) => deleteOldAnonymousUsers(q, limit, at));
  return deleted;
}
