-- The audit log (GoTrue's auth.audit_log_entries): one row per auth event and per change to the
-- workspace's settings, written by the statement or transaction of the event itself. The payload
-- is GoTrue's (actor_id, actor_username, actor_name, actor_via_sso, action, log_type, traits); the
-- user agent is ours, kept beside the IP address. Rows go after AUDIT_KEEP_DAYS (the retention job).
CREATE TABLE auth.audit_log_entries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  payload jsonb NOT NULL,
  -- The time of the event itself, not of its transaction: entries of one transaction keep their order.
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  ip_address varchar(64) NOT NULL DEFAULT '',
  user_agent text NOT NULL DEFAULT ''
);
-- Newest first (the listings), oldest first (the retention job).
CREATE INDEX audit_log_entries_created_at_idx ON auth.audit_log_entries (created_at, id);
-- The admin API's filters (`query=author:…|action:…|type:…`) search parts of these fields, as
-- GoTrue does (ILIKE '%…%'); the workspace's Security tab filters them too.
CREATE INDEX audit_log_entries_actor_trgm ON auth.audit_log_entries
  USING gin ((payload->>'actor_username') gin_trgm_ops);
CREATE INDEX audit_log_entries_actor_name_trgm ON auth.audit_log_entries
  USING gin ((payload->>'actor_name') gin_trgm_ops);
CREATE INDEX audit_log_entries_action_trgm ON auth.audit_log_entries
  USING gin ((payload->>'action') gin_trgm_ops);
CREATE INDEX audit_log_entries_log_type_trgm ON auth.audit_log_entries
  USING gin ((payload->>'log_type') gin_trgm_ops);
