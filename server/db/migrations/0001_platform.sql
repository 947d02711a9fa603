-- Schemas of the platform. public holds the site's leads (exposed through /rest/v1), auth the
-- accounts (/auth/v1), mail the outbox, internal what no client reads (captcha replays, …).
CREATE SCHEMA IF NOT EXISTS auth;
CREATE SCHEMA IF NOT EXISTS mail;
CREATE SCHEMA IF NOT EXISTS internal;
