-- What the workspace reads beside the inbox: the delivery log of webhooks (newest first), and a
-- search of the inbox by name, email and company that uses indexes (trigrams: a substring of
-- three characters or more is found through a GIN index instead of a scan of every lead).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX webhook_deliveries_created_idx ON public.webhook_deliveries (created_at, id);

-- An endpoint added or enabled in the workspace gets the events of leads stored from this time
-- on: a few seconds after the change, once every instance has read that an endpoint is enabled
-- (server/webhooks/endpoints.ts), so no instance stores a lead it should have sent without it.
ALTER TABLE public.webhook_endpoints ADD COLUMN events_from timestamptz NOT NULL DEFAULT now();

-- The inbox's search: each lead's name, email and company as one text (the `leads` view's
-- `search` column), indexed by trigrams in each form's table.
CREATE INDEX newsletter_subscribers_search_trgm ON public.newsletter_subscribers
  USING gin (email gin_trgm_ops);
CREATE INDEX demo_requests_search_trgm ON public.demo_requests USING gin (email gin_trgm_ops);
CREATE INDEX access_requests_search_trgm ON public.access_requests
  USING gin ((first_name || ' ' || last_name || ' ' || email || ' ' || company_name) gin_trgm_ops);
CREATE INDEX contact_messages_search_trgm ON public.contact_messages
  USING gin ((name || ' ' || email) gin_trgm_ops);
CREATE INDEX demo_form_requests_search_trgm ON public.demo_form_requests
  USING gin ((name || ' ' || email || ' ' || company) gin_trgm_ops);

-- The view of 0015 with that text last: each branch's `search` is its table's indexed expression.
CREATE OR REPLACE VIEW public.leads AS
SELECT l.id, l.kind, l.created_at, l.email, l.name, l.company, l.details,
  l.source->>'page' AS page, l.source->>'referrer' AS referrer,
  l.source->>'utm_source' AS utm_source, l.source->>'utm_medium' AS utm_medium,
  l.source->>'utm_campaign' AS utm_campaign,
  coalesce(s.status, 'new') AS status, s.note, s.updated_by AS status_updated_by,
  s.updated_at AS status_updated_at, l.search
FROM (
  SELECT id, 'newsletter'::text AS kind, created_at, email, NULL::text AS name,
    NULL::text AS company, '{}'::jsonb AS details, source::jsonb AS source, email AS search
  FROM public.newsletter_subscribers
  UNION ALL
  SELECT id, 'watch_demo', created_at, email, NULL, NULL, '{}', source::jsonb, email
  FROM public.demo_requests
  UNION ALL
  SELECT id, 'request_access', created_at, email, first_name || ' ' || last_name, company_name,
    jsonb_build_object('company_size', company_size, 'department', department), source::jsonb,
    first_name || ' ' || last_name || ' ' || email || ' ' || company_name
  FROM public.access_requests
  UNION ALL
  SELECT id, 'contact', created_at, email, name, NULL,
    jsonb_build_object('phone', phone, 'message', message), source::jsonb, name || ' ' || email
  FROM public.contact_messages
  UNION ALL
  SELECT id, 'request_demo', created_at, email, name, company,
    jsonb_build_object('phone', phone, 'position', position, 'website', website), source::jsonb,
    name || ' ' || email || ' ' || company
  FROM public.demo_form_requests
) AS l
LEFT JOIN public.lead_states AS s ON s.kind = l.kind AND s.lead_id = l.id;
