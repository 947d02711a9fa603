-- The workspace's outbox: each email the site sent or is sending, with its state, attempts and
-- last error. The bodies stay out of it: account emails carry sign-in links and codes.
CREATE VIEW public.emails AS
SELECT id, kind, to_address, subject, created_at, attempts, next_attempt_at, sent_at, failed_at,
  last_error,
  CASE WHEN sent_at IS NOT NULL THEN 'sent' WHEN failed_at IS NOT NULL THEN 'failed' ELSE 'queued' END AS status
FROM mail.outbox;
