-- A lead worked inside the workspace (decision 0052): the statuses a sales team uses (New,
-- Contacted, Qualified, Won, Lost with a reason, Junk), an owner among the team's members, a next
-- step with its due date, and notes as a timeline (each note added, never overwritten, typed as a
-- note, a call logged or an email sent). The one overwritable note of 0015 becomes the first
-- note of each lead's timeline; its past changes stay in the history.

-- The triggers of 0027 name the note: they are replaced below.
DROP TRIGGER lead_states_keep_unchanged ON public.lead_states;
DROP TRIGGER lead_states_record_change ON public.lead_states;
DROP FUNCTION internal.lead_state_keep_unchanged();
DROP FUNCTION internal.lead_state_record_change();

CREATE TABLE public.lead_notes (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  kind text NOT NULL,
  lead_id uuid NOT NULL,
  type text NOT NULL DEFAULT 'note' CHECK (type IN ('note', 'call', 'email')),
  body text NOT NULL CHECK (length(body) BETWEEN 1 AND 5000),
  created_by uuid REFERENCES auth.users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lead_notes_lead_idx ON public.lead_notes (kind, lead_id, created_at);
CREATE INDEX lead_notes_created_by_idx ON public.lead_notes (created_by);
INSERT INTO public.lead_notes (kind, lead_id, type, body, created_by, created_at)
SELECT kind, lead_id, 'note', note, updated_by, updated_at FROM public.lead_states
WHERE note IS NOT NULL AND btrim(note) <> '';

-- A lead the team "closed" before Won and Lost existed is Lost, its reason saying so.
ALTER TABLE public.lead_states DROP CONSTRAINT lead_states_status_check;
ALTER TABLE public.lead_states
  ADD COLUMN lost_reason text CHECK (length(lost_reason) BETWEEN 1 AND 500),
  ADD COLUMN owner_id uuid REFERENCES auth.users (id) ON DELETE SET NULL,
  ADD COLUMN next_step text CHECK (length(next_step) BETWEEN 1 AND 500),
  ADD COLUMN due_on date;
UPDATE public.lead_states SET status = 'lost', lost_reason = 'Closed' WHERE status = 'closed';
ALTER TABLE public.lead_states
  ADD CONSTRAINT lead_states_status_check
    CHECK (status IN ('new', 'contacted', 'qualified', 'won', 'lost', 'junk')),
  -- A lost lead says why; no other status has a reason.
  ADD CONSTRAINT lead_states_lost_has_reason CHECK ((status = 'lost') = (lost_reason IS NOT NULL)),
  -- A next step has its due date.
  ADD CONSTRAINT lead_states_next_step_has_due_date CHECK ((next_step IS NULL) = (due_on IS NULL));
-- The team's members, as a lead's owner is chosen: found by their role among every account.
CREATE INDEX users_team_role_idx ON auth.users ((raw_app_meta_data->>'team_role'))
  WHERE raw_app_meta_data->>'team_role' IS NOT NULL;
-- A member's leads ("my leads"), their due ones first; the daily email's due and overdue leads.
CREATE INDEX lead_states_owner_idx ON public.lead_states (owner_id, due_on);
CREATE INDEX lead_states_due_idx ON public.lead_states (due_on) WHERE due_on IS NOT NULL;

-- The history names the fields each change made (`fields`), with their new values; the rows of
-- 0027 named the status or the note by a value that was not NULL.
ALTER TABLE public.lead_state_changes
  ADD COLUMN fields text[] NOT NULL DEFAULT '{}',
  ADD COLUMN lost_reason text,
  ADD COLUMN owner_id uuid REFERENCES auth.users (id) ON DELETE SET NULL,
  ADD COLUMN next_step text,
  ADD COLUMN due_on date;
UPDATE public.lead_state_changes SET status = 'lost', lost_reason = 'Closed' WHERE status = 'closed';
UPDATE public.lead_state_changes SET fields =
  CASE WHEN status IS NOT NULL THEN ARRAY['status'] ELSE '{}' END
  || CASE WHEN note IS NOT NULL THEN ARRAY['note'] ELSE '{}' END;
CREATE INDEX lead_state_changes_owner_idx ON public.lead_state_changes (owner_id);

DROP VIEW public.leads;
ALTER TABLE public.lead_states DROP COLUMN note;

-- The view of 0023 with the lead's work: its reason if lost, owner, next step and due date, and
-- the person (the address in lower case, as each form's table indexes it: one person per address).
CREATE VIEW public.leads AS
SELECT l.id, l.kind, l.created_at, l.email, l.name, l.company, l.details,
  l.source->>'page' AS page, l.source->>'referrer' AS referrer,
  l.source->>'utm_source' AS utm_source, l.source->>'utm_medium' AS utm_medium,
  l.source->>'utm_campaign' AS utm_campaign,
  coalesce(s.status, 'new') AS status, s.updated_by AS status_updated_by,
  s.updated_at AS status_updated_at, l.search, s.lost_reason, s.owner_id, s.next_step, s.due_on,
  l.person
FROM (
  SELECT id, 'newsletter'::text AS kind, created_at, email, NULL::text AS name,
    NULL::text AS company, '{}'::jsonb AS details, source::jsonb AS source, email AS search,
    lower(email) AS person, status <> 'pending' AS listed
  FROM public.newsletter_subscribers
  UNION ALL
  SELECT id, 'watch_demo', created_at, email, NULL, NULL, '{}', source::jsonb, email, lower(email),
    true
  FROM public.demo_requests
  UNION ALL
  SELECT id, 'request_access', created_at, email, first_name || ' ' || last_name, company_name,
    jsonb_build_object('company_size', company_size, 'department', department), source::jsonb,
    first_name || ' ' || last_name || ' ' || email || ' ' || company_name, lower(email), true
  FROM public.access_requests
  UNION ALL
  SELECT id, 'contact', created_at, email, name, NULL,
    jsonb_build_object('phone', phone, 'message', message), source::jsonb, name || ' ' || email,
    lower(email), true
  FROM public.contact_messages
  UNION ALL
  SELECT id, 'request_demo', created_at, email, name, company,
    jsonb_build_object('phone', phone, 'position', position, 'website', website), source::jsonb,
    name || ' ' || email || ' ' || company, lower(email), true
  FROM public.demo_form_requests
) AS l
LEFT JOIN public.lead_states AS s ON s.kind = l.kind AND s.lead_id = l.id
-- A pending newsletter address is nobody's lead yet (0023). Said here rather than in its branch:
-- a branch with a condition of its own is read as a subquery, whole, where a lead is joined by id.
WHERE l.listed;

-- A save that changes nothing keeps who changed the lead last and when (0027's rule), so the
-- lead's keeping time does not start again and the history gains nothing.
CREATE FUNCTION internal.lead_state_keep_unchanged() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.status, NEW.lost_reason, NEW.owner_id, NEW.next_step, NEW.due_on)
     IS NOT DISTINCT FROM (OLD.status, OLD.lost_reason, OLD.owner_id, OLD.next_step, OLD.due_on)
  THEN
    NEW.updated_by := OLD.updated_by;
    NEW.updated_at := OLD.updated_at;
  END IF;
  RETURN NEW;
END
$$;

-- Only a save moves updated_at: a foreign key's ON DELETE SET NULL (a member deleted) is none.
CREATE TRIGGER lead_states_keep_unchanged BEFORE UPDATE OF status, lost_reason, owner_id, next_step, due_on
ON public.lead_states FOR EACH ROW EXECUTE FUNCTION internal.lead_state_keep_unchanged();

-- Each save appends one history row naming the fields it changed, with their new values. A lead
-- without a row is `new`, owned by nobody, without a next step (the leads view shows it so).
CREATE FUNCTION internal.lead_state_record_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  was public.lead_states%ROWTYPE;
  changed text[] := '{}';
BEGIN
  IF TG_OP = 'UPDATE' THEN
    -- Not a save (a member's deletion set a column to NULL): no history.
    IF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN
      RETURN NULL;
    END IF;
    was := OLD;
  ELSE
    was.status := 'new';
  END IF;
  IF (NEW.status, NEW.lost_reason) IS DISTINCT FROM (was.status, was.lost_reason) THEN
    changed := changed || 'status'::text;
  END IF;
  IF NEW.owner_id IS DISTINCT FROM was.owner_id THEN
    changed := changed || 'owner_id'::text;
  END IF;
  IF (NEW.next_step, NEW.due_on) IS DISTINCT FROM (was.next_step, was.due_on) THEN
    changed := changed || 'next_step'::text;
  END IF;
  IF cardinality(changed) > 0 THEN
    INSERT INTO public.lead_state_changes
      (kind, lead_id, fields, status, lost_reason, owner_id, next_step, due_on, changed_by, changed_at)
    VALUES (NEW.kind, NEW.lead_id, changed, NEW.status, NEW.lost_reason, NEW.owner_id,
      NEW.next_step, NEW.due_on, NEW.updated_by, NEW.updated_at);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER lead_states_record_change AFTER INSERT OR UPDATE ON public.lead_states
FOR EACH ROW EXECUTE FUNCTION internal.lead_state_record_change();
