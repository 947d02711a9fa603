-- The newsletter's issues, sent (decision 0054): a member composes an issue in Markdown, schedules
-- or sends it; each instance's sender (server/newsletter/sender.ts) queues its copies into the
-- outbox at the configured rate, one subscriber after the other in id order, under the issue's row
-- lock; newsletter_sends records each copy (one per subscriber and issue: its primary key) and
-- what became of it, so the issue's figures outlive the outbox's 30 days.
CREATE TABLE public.newsletter_issues (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  subject text NOT NULL
    CONSTRAINT newsletter_issues_subject_check CHECK (length(subject) BETWEEN 1 AND 200),
  body text NOT NULL
    CONSTRAINT newsletter_issues_body_check CHECK (length(body) BETWEEN 1 AND 100000),
  status text NOT NULL DEFAULT 'draft'
    CONSTRAINT newsletter_issues_status_check
    CHECK (status IN ('draft', 'scheduled', 'sending', 'sent')),
  -- When a scheduled issue starts going out.
  send_at timestamptz,
  -- The archive's number of a sent issue (/newsletter/<number>), given when sending starts.
  number integer UNIQUE,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  sent_at timestamptz,
  -- The sender's place: the last subscriber queued, and the rate's clock (the instant up to
  -- which the copies already queued used the rate).
  queued_up_to uuid,
  paced_at timestamptz,
  CONSTRAINT newsletter_issues_schedule_check CHECK (status = 'draft' OR send_at IS NOT NULL)
);

CREATE INDEX newsletter_issues_scheduled_idx ON public.newsletter_issues (send_at)
  WHERE status = 'scheduled';
CREATE INDEX newsletter_issues_sending_idx ON public.newsletter_issues (started_at)
  WHERE status = 'sending';
CREATE INDEX newsletter_issues_sent_idx ON public.newsletter_issues (number)
  WHERE status IN ('sending', 'sent');

CREATE TABLE public.newsletter_sends (
  issue_id uuid NOT NULL REFERENCES public.newsletter_issues (id) ON DELETE CASCADE,
  subscriber_id uuid NOT NULL REFERENCES public.newsletter_subscribers (id) ON DELETE CASCADE,
  -- The copy in mail.outbox (no reference: the outbox forgets sent emails after 30 days).
  email_id uuid NOT NULL,
  queued_at timestamptz NOT NULL DEFAULT now(),
  -- The outbox's outcome, copied once it has one; a provider's bounce or complaint later.
  sent_at timestamptz,
  failed_at timestamptz,
  bounced_at timestamptz,
  -- The subscriber left through this issue's unsubscribe link.
  unsubscribed_at timestamptz,
  PRIMARY KEY (issue_id, subscriber_id)
);

-- The copies whose outcome the sender has not yet copied from the outbox.
CREATE INDEX newsletter_sends_open_idx ON public.newsletter_sends (issue_id, email_id)
  WHERE sent_at IS NULL AND failed_at IS NULL;
CREATE INDEX newsletter_sends_email_idx ON public.newsletter_sends (email_id);
CREATE INDEX newsletter_sends_subscriber_idx ON public.newsletter_sends (subscriber_id);

-- Why an address no longer receives the newsletter: it unsubscribed, the team unsubscribed it,
-- the provider reported a bounce or a complaint.
ALTER TABLE public.newsletter_subscribers
  ADD COLUMN unsubscribe_reason text
    CONSTRAINT newsletter_subscribers_unsubscribe_reason_check
    CHECK (unsubscribe_reason IN ('unsubscribed', 'team', 'bounced', 'complained'));
UPDATE public.newsletter_subscribers SET unsubscribe_reason = 'unsubscribed'
WHERE status = 'unsubscribed';

-- The sender reads the subscribed addresses in id order.
CREATE INDEX newsletter_subscribers_subscribed_idx ON public.newsletter_subscribers (id)
  WHERE status = 'subscribed';

CREATE OR REPLACE VIEW public.subscribers AS
SELECT id, email, status, created_at, confirmed_at, unsubscribed_at, unsubscribe_reason
FROM public.newsletter_subscribers;
