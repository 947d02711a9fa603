-- Text messages (sign-in and verification codes) kept for the dev mailbox when no Send SMS hook is
-- configured: only ever written where the dev mailbox shows them.
CREATE TABLE mail.text_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL,
  to_phone text NOT NULL,
  channel text NOT NULL CHECK (channel IN ('sms', 'whatsapp')),
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX text_messages_recent_idx ON mail.text_messages (created_at DESC);
