-- Each member's daily email of their due and overdue leads (decision 0053): one row per member
-- and day (in the team's time zone) once it is queued. The row is written in the transaction that
-- queues the email, so with several instances exactly one queues it, and a restart sends none
-- twice.
CREATE TABLE mail.due_reminders (
  user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  day date NOT NULL,
  PRIMARY KEY (user_id, day)
);
-- A lead still open with a next step, by its due date (the reminder's leads of the day).
CREATE INDEX lead_states_open_due_idx ON public.lead_states (due_on, owner_id)
  WHERE due_on IS NOT NULL AND status NOT IN ('won', 'lost', 'junk');
