-- Page analytics without cookies and without storing who visited: page views counted per day,
-- page, referring site and UTM campaign; unique visitors as hashes salted with a salt of the day
-- (shared by every instance, deleted when the day is over, so a hash can no longer be linked to
-- the address and browser it was made from). No IP address or user agent is stored.
CREATE SCHEMA analytics;

CREATE TABLE analytics.salts (
  day date PRIMARY KEY,
  salt bytea NOT NULL
);

CREATE TABLE analytics.page_views (
  day date NOT NULL,
  path text NOT NULL CHECK (length(path) <= 512),
  referrer text NOT NULL CHECK (length(referrer) <= 255),
  campaign text NOT NULL CHECK (length(campaign) <= 100),
  views integer NOT NULL,
  PRIMARY KEY (day, path, referrer, campaign)
);

CREATE TABLE analytics.visitors (
  day date NOT NULL,
  path text NOT NULL,
  visitor bytea NOT NULL,
  PRIMARY KEY (day, path, visitor)
);

-- Leads by the day they arrived (the pages that brought them, and the workspace's inbox).
CREATE INDEX newsletter_subscribers_created_at_idx ON public.newsletter_subscribers (created_at);
CREATE INDEX demo_requests_created_at_idx ON public.demo_requests (created_at);
CREATE INDEX access_requests_created_at_idx ON public.access_requests (created_at);
CREATE INDEX contact_messages_created_at_idx ON public.contact_messages (created_at);
CREATE INDEX demo_form_requests_created_at_idx ON public.demo_form_requests (created_at);
