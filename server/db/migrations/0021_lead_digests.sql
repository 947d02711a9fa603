-- The team's digests of the leads that send it no email of their own ("Watch Demo" requests and
-- confirmed newsletter subscribers; decision 0030): one row per kind, the time up to which its
-- leads were listed in a digest, and when the last digest was queued. A digest is queued in the
-- transaction that moves its row on, under the row's lock, so instances never send one twice and
-- a restart loses nothing. Leads before this migration were in their tables already.
CREATE TABLE mail.lead_digests (
  kind text PRIMARY KEY,
  covered_until timestamptz NOT NULL,
  sent_at timestamptz
);
INSERT INTO mail.lead_digests (kind, covered_until) VALUES ('watch_demo', now()), ('newsletter', now());
