-- The workspace's inbox: every lead of the five forms in one view, with the status and internal
-- note the team keeps for it (who changed them and when). Read through /rest/v1 by team members
-- only (the server checks the role and the session's assurance level).
CREATE TABLE public.lead_states (
  kind text NOT NULL,
  lead_id uuid NOT NULL,
  status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'contacted', 'qualified', 'closed')),
  note text CHECK (length(note) <= 5000),
  updated_by uuid REFERENCES auth.users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, lead_id)
);
CREATE INDEX lead_states_updated_by_idx ON public.lead_states (updated_by);

CREATE VIEW public.leads AS
SELECT l.id, l.kind, l.created_at, l.email, l.name, l.company, l.details,
  l.source->>'page' AS page, l.source->>'referrer' AS referrer,
  l.source->>'utm_source' AS utm_source, l.source->>'utm_medium' AS utm_medium,
  l.source->>'utm_campaign' AS utm_campaign,
  coalesce(s.status, 'new') AS status, s.note, s.updated_by AS status_updated_by,
  s.updated_at AS status_updated_at
FROM (
  SELECT id, 'newsletter'::text AS kind, created_at, email, NULL::text AS name,
    NULL::text AS company, '{}'::jsonb AS details, source::jsonb AS source
  FROM public.newsletter_subscribers
  UNION ALL
  SELECT id, 'watch_demo', created_at, email, NULL, NULL, '{}', source::jsonb FROM public.demo_requests
  UNION ALL
  SELECT id, 'request_access', created_at, email, first_name || ' ' || last_name, company_name,
    jsonb_build_object('company_size', company_size, 'department', department), source::jsonb
  FROM public.access_requests
  UNION ALL
  SELECT id, 'contact', created_at, email, name, NULL,
    jsonb_build_object('phone', phone, 'message', message), source::jsonb
  FROM public.contact_messages
  UNION ALL
  SELECT id, 'request_demo', created_at, email, name, company,
    jsonb_build_object('phone', phone, 'position', position, 'website', website), source::jsonb
  FROM public.demo_form_requests
) AS l
-- Every branch has the same column types, so that the planner reads the branches as one list
-- (each through its own created_at index for the newest leads first).
LEFT JOIN public.lead_states AS s ON s.kind = l.kind AND s.lead_id = l.id;

-- Every change of a lead's status or note, by whom and when (the inbox shows the history).
CREATE TABLE public.lead_state_changes (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  kind text NOT NULL,
  lead_id uuid NOT NULL,
  status text,
  note text,
  changed_by uuid REFERENCES auth.users (id) ON DELETE SET NULL,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lead_state_changes_lead_idx ON public.lead_state_changes (kind, lead_id, changed_at);
CREATE INDEX lead_state_changes_changed_by_idx ON public.lead_state_changes (changed_by);
