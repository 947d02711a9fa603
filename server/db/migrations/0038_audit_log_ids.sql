-- The audit log's ids are time-ordered version 7 UUIDs, as every other table's (0008).
ALTER TABLE auth.audit_log_entries ALTER COLUMN id SET DEFAULT internal.uuid_v7();
