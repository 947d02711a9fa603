-- A Watch Demo request keeps one row per address; asking again is a contact all the same. The
-- time of the latest request is kept here (NULL: only the first), and the lead is kept 24 months
-- after it (decision 0033).
ALTER TABLE public.demo_requests ADD COLUMN last_requested_at timestamptz;
