-- Each email a lead caused names the lead (the workspace's detail view lists them), and an email
-- may carry extra header fields (a newsletter's List-Unsubscribe, RFC 8058).
ALTER TABLE mail.outbox ADD COLUMN lead_id uuid;
ALTER TABLE mail.outbox ADD COLUMN headers jsonb NOT NULL DEFAULT '{}'::jsonb
  CHECK (jsonb_typeof(headers) = 'object');
CREATE INDEX outbox_lead_idx ON mail.outbox (lead_id) WHERE lead_id IS NOT NULL;

-- The workspace's outbox, now with the lead of each email (still without bodies or headers).
CREATE OR REPLACE VIEW public.emails AS
SELECT id, kind, to_address, subject, created_at, attempts, next_attempt_at, sent_at, failed_at,
  last_error,
  CASE WHEN sent_at IS NOT NULL THEN 'sent' WHEN failed_at IS NOT NULL THEN 'failed' ELSE 'queued' END AS status,
  lead_id
FROM mail.outbox;
