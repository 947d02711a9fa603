-- The team's settings, one row (decision 0053): its time zone, which the team's emails say times
-- in and which says the day of each member's due-leads email. The server makes the row from
-- TEAM_TIME_ZONE when there is none; from then on the team's admins change it in the workspace.
CREATE TABLE public.team_settings (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  time_zone text NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64),
  updated_at timestamptz NOT NULL DEFAULT now()
);
