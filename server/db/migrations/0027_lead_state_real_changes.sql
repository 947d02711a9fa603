-- A lead's status and note as changes only: a save that leaves both as they were (the same status,
-- the same note) keeps who changed the lead last and when, so the lead's 24 months of keeping
-- (decision 0033, counted from lead_states.updated_at) do not start again, and it appends nothing
-- to the history. Each real change appends one row to lead_state_changes, naming the field(s) that
-- changed (the other NULL; a removed note is ''), whoever writes the row.
CREATE FUNCTION internal.lead_state_keep_unchanged() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS NOT DISTINCT FROM OLD.status AND NEW.note IS NOT DISTINCT FROM OLD.note THEN
    NEW.updated_by := OLD.updated_by;
    NEW.updated_at := OLD.updated_at;
  END IF;
  RETURN NEW;
END
$$;

-- Only a write of the status or note (every save names both) is a save: the foreign key's
-- ON DELETE SET NULL of updated_by, when the member is deleted, is no save and must stand.
CREATE TRIGGER lead_states_keep_unchanged BEFORE UPDATE OF status, note ON public.lead_states
FOR EACH ROW EXECUTE FUNCTION internal.lead_state_keep_unchanged();

-- A lead without a row is `new` without a note (the leads view shows it so).
CREATE FUNCTION internal.lead_state_record_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  was_status text := 'new';
  was_note text := NULL;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    was_status := OLD.status;
    was_note := OLD.note;
  END IF;
  IF NEW.status IS DISTINCT FROM was_status OR NEW.note IS DISTINCT FROM was_note THEN
    INSERT INTO public.lead_state_changes (kind, lead_id, status, note, changed_by, changed_at)
    VALUES (
      NEW.kind, NEW.lead_id,
      CASE WHEN NEW.status IS DISTINCT FROM was_status THEN NEW.status END,
      -- A removed note is recorded as an empty one: NULL says the note did not change.
      CASE WHEN NEW.note IS DISTINCT FROM was_note THEN coalesce(NEW.note, '') END,
      NEW.updated_by, NEW.updated_at
    );
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER lead_states_record_change AFTER INSERT OR UPDATE ON public.lead_states
FOR EACH ROW EXECUTE FUNCTION internal.lead_state_record_change();
