// Claims on outbox emails (queue/claims.ts): one email per claim, each with its own token and
// lease. Every write that ends a claim names the token, so a worker whose claim was taken over
// changes nothing.
import { outboxClaims, type Claimed } from "../queue/claims.ts";
import type { OutboxRow } from "./outbox.ts";

export type ClaimedEmail = Claimed<OutboxRow>;

export const emailClaims = outboxClaims<OutboxRow>({
  table: "mail.outbox",
  queue: "email",
  done: "sent_at",
});
