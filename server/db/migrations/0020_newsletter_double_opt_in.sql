-- Newsletter double opt-in (decision 0030): a sign-up is pending until its address confirms the
-- emailed link; only confirmed addresses are subscribed; an unsubscribed address stays, marked, so
-- it is never mailed again unless it signs up and confirms anew.
ALTER TABLE public.newsletter_subscribers
  ADD COLUMN status text NOT NULL DEFAULT 'pending'
    CONSTRAINT newsletter_subscribers_status_check
    CHECK (status IN ('pending', 'subscribed', 'unsubscribed')),
  -- The last sign-up of a pending address: unconfirmed ones are deleted 30 days after it.
  ADD COLUMN requested_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN confirmed_at timestamptz,
  ADD COLUMN unsubscribed_at timestamptz;

-- Addresses that signed up before confirmation existed never confirmed: pending since they asked.
UPDATE public.newsletter_subscribers SET requested_at = created_at;

-- The cleanup of unconfirmed addresses, and the team's digest of new confirmed subscribers.
CREATE INDEX newsletter_subscribers_pending_idx ON public.newsletter_subscribers (requested_at)
  WHERE status = 'pending';
CREATE INDEX newsletter_subscribers_confirmed_idx ON public.newsletter_subscribers (confirmed_at)
  WHERE status = 'subscribed';

-- The workspace's list of subscribers (GET /rest/v1/subscribers, members on aal2).
CREATE VIEW public.subscribers AS
SELECT id, email, status, created_at, confirmed_at, unsubscribed_at
FROM public.newsletter_subscribers;
