-- The audit log's entries in the order they were written: a transaction's entries can share a
-- created_at (the embedded database's clock counts milliseconds), so each entry also takes the
-- next number of a sequence, and the listings order by both.
ALTER TABLE auth.audit_log_entries ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
DROP INDEX auth.audit_log_entries_created_at_idx;
CREATE INDEX audit_log_entries_created_at_idx ON auth.audit_log_entries (created_at, seq);
