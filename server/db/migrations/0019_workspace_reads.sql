-- What the workspace reads beside the inbox: the delivery log of webhooks (newest first), and a
-- search of the inbox by name, email and company that uses indexes (trigrams: a substring of
-- three characters or more is found through a GIN index instead of a scan of every lead).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX webhook_deliveries_created_idx ON public.webhook_deliveries (created_at, id);

-- An endpoint added or enabled in the workspace gets the events of leads stored from this time
-- on: a few seconds after the change, once every instance has read that an endpoint is enabled
-- (server/webhooks/endpoints.ts), so no instance stores a lead it should have sent without it.
ALTER TABLE public.webhook_endpoints ADD COLUMN events_from timestamptz NOT NULL DEFAULT now();

-- The inbox's search: each text the `leads` view shows as name, email or company, per form.
CREATE INDEX newsletter_subscribers_email_trgm ON public.newsletter_subscribers USING gin (email gin_trgm_ops);
CREATE INDEX demo_requests_email_trgm ON public.demo_requests USING gin (email gin_trgm_ops);
CREATE INDEX access_requests_email_trgm ON public.access_requests USING gin (email gin_trgm_ops);
CREATE INDEX access_requests_name_trgm ON public.access_requests
  USING gin ((first_name || ' ' || last_name) gin_trgm_ops);
CREATE INDEX access_requests_company_trgm ON public.access_requests USING gin (company_name gin_trgm_ops);
CREATE INDEX contact_messages_email_trgm ON public.contact_messages USING gin (email gin_trgm_ops);
CREATE INDEX contact_messages_name_trgm ON public.contact_messages USING gin (name gin_trgm_ops);
CREATE INDEX demo_form_requests_email_trgm ON public.demo_form_requests USING gin (email gin_trgm_ops);
CREATE INDEX demo_form_requests_name_trgm ON public.demo_form_requests USING gin (name gin_trgm_ops);
CREATE INDEX demo_form_requests_company_trgm ON public.demo_form_requests USING gin (company gin_trgm_ops);
