-- The inbox lists a newsletter subscriber once the address is confirmed, as the CRM and the
-- digests do (decision 0030): a pending address is nobody's lead yet. An address that confirmed
-- and later unsubscribed stays a lead. The view of 0019 otherwise unchanged.
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
  FROM public.newsletter_subscribers WHERE status <> 'pending'
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
