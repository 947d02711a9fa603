-- Each email is claimed on its own: a worker writes a fresh claim_token and a short lease
-- (locked_until) that it renews while the SMTP peer is answering, and records the outcome only
-- while the token is still its own. A claim released on purpose (sent, stopped, peer down) clears
-- the token; a token still set on an expired lease means its worker died holding it.
ALTER TABLE mail.outbox ADD COLUMN claim_token uuid;

-- Emails postponed by the old per-message backoff of an SMTP outage are due again: an outage now
-- pauses the workers (they probe the peer) instead of postponing each email.
UPDATE mail.outbox SET next_attempt_at = now()
WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at > now();
