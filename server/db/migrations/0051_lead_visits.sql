-- The counted visit each lead was sent from (decision 0062): its day, its visitor's code, the
-- source of the visit (as analytics.visit_sources holds it) and the page the form was on when that
-- visitor's view of it was counted. The workspace's conversion figures count the visitors whose
-- leads are not junk, read when asked: a lead marked junk later leaves them, and no figure exceeds
-- its visitors. The code outlives its day's salt, so it names nobody; it only tells two leads of
-- one visitor's day apart from two visitors'. A lead that goes takes its row with it.
CREATE TABLE analytics.lead_visits (
  lead_id uuid PRIMARY KEY,
  day date NOT NULL,
  visitor bytea NOT NULL,
  path text,
  referrer text NOT NULL,
  source text NOT NULL,
  medium text NOT NULL,
  campaign text NOT NULL
);
CREATE INDEX lead_visits_day_idx ON analytics.lead_visits (day);

-- Visits marked converted before this table (visit_sources.converted and daily_sources.converted)
-- keep counting as they were; nothing marks them any more.

CREATE FUNCTION internal.lead_visit_gone() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM analytics.lead_visits WHERE lead_id = OLD.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER demo_requests_visit AFTER DELETE ON public.demo_requests
FOR EACH ROW EXECUTE FUNCTION internal.lead_visit_gone();
CREATE TRIGGER access_requests_visit AFTER DELETE ON public.access_requests
FOR EACH ROW EXECUTE FUNCTION internal.lead_visit_gone();
CREATE TRIGGER contact_messages_visit AFTER DELETE ON public.contact_messages
FOR EACH ROW EXECUTE FUNCTION internal.lead_visit_gone();
CREATE TRIGGER demo_form_requests_visit AFTER DELETE ON public.demo_form_requests
FOR EACH ROW EXECUTE FUNCTION internal.lead_visit_gone();
CREATE TRIGGER newsletter_subscribers_visit AFTER DELETE ON public.newsletter_subscribers
FOR EACH ROW EXECUTE FUNCTION internal.lead_visit_gone();
