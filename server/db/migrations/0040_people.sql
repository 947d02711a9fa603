-- One person per address (decision 0052): the leads of every form under one lower-cased address
-- are one person's entries. `public.people` keeps each person's first and latest entry and how
-- many there are, so that the people newest first are a page of one index however many leads
-- there are; the database keeps it as entries arrive and go (a pending newsletter address is
-- nobody's entry until confirmed, as in the leads view).
CREATE TABLE public.people (
  email text PRIMARY KEY CHECK (email = lower(email)),
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  entries integer NOT NULL CHECK (entries > 0)
);
CREATE INDEX people_last_at_idx ON public.people (last_at, email);
-- The People list's search by a part of the address.
CREATE INDEX people_email_trgm ON public.people USING gin (email gin_trgm_ops);

INSERT INTO public.people (email, first_at, last_at, entries)
SELECT person, min(created_at), max(created_at), count(*) FROM public.leads GROUP BY person;

-- An entry arrived: the person's row is made or counts one more (one statement: two entries of
-- one person at once both count).
CREATE FUNCTION internal.person_entry_added(address text, at timestamptz) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO public.people AS p (email, first_at, last_at, entries)
  VALUES (lower(address), at, at, 1)
  ON CONFLICT (email) DO UPDATE SET entries = p.entries + 1,
    first_at = least(p.first_at, EXCLUDED.first_at), last_at = greatest(p.last_at, EXCLUDED.last_at);
$$;

-- An entry went (the keeping time ran out, a subscriber was deleted): the person counts one less,
-- and goes with their last entry; their latest entry is read again.
CREATE FUNCTION internal.person_entry_removed(address text) RETURNS void
LANGUAGE sql AS $$
  UPDATE public.people SET entries = entries - 1,
    last_at = coalesce((SELECT max(created_at) FROM public.leads WHERE person = lower(address)), last_at)
  WHERE email = lower(address) AND entries > 1;
  DELETE FROM public.people WHERE email = lower(address) AND entries = 1
    AND NOT EXISTS (SELECT 1 FROM public.leads WHERE person = lower(address));
$$;

CREATE FUNCTION internal.people_track_entry() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM internal.person_entry_added(NEW.email, NEW.created_at);
  ELSE
    PERFORM internal.person_entry_removed(OLD.email);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER demo_requests_people AFTER INSERT OR DELETE ON public.demo_requests
FOR EACH ROW EXECUTE FUNCTION internal.people_track_entry();
CREATE TRIGGER access_requests_people AFTER INSERT OR DELETE ON public.access_requests
FOR EACH ROW EXECUTE FUNCTION internal.people_track_entry();
CREATE TRIGGER contact_messages_people AFTER INSERT OR DELETE ON public.contact_messages
FOR EACH ROW EXECUTE FUNCTION internal.people_track_entry();
CREATE TRIGGER demo_form_requests_people AFTER INSERT OR DELETE ON public.demo_form_requests
FOR EACH ROW EXECUTE FUNCTION internal.people_track_entry();

-- A newsletter address is an entry while it is not pending.
CREATE FUNCTION internal.people_track_subscriber() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  was_listed boolean := TG_OP <> 'INSERT' AND OLD.status <> 'pending';
  listed boolean := TG_OP <> 'DELETE' AND NEW.status <> 'pending';
BEGIN
  IF listed AND NOT was_listed THEN
    PERFORM internal.person_entry_added(NEW.email, NEW.created_at);
  ELSIF was_listed AND NOT listed THEN
    PERFORM internal.person_entry_removed(OLD.email);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER newsletter_subscribers_people AFTER INSERT OR DELETE OR UPDATE OF status
ON public.newsletter_subscribers FOR EACH ROW EXECUTE FUNCTION internal.people_track_subscriber();
