-- Phones and text messages.
--
-- A phone number is E.164 as GoTrue reads it: 2 to 15 digits, without "+" (the shortest numbers in
-- service have 7 digits, fewer than the 8 allowed until now).
ALTER TABLE auth.users DROP CONSTRAINT users_phone_check;
ALTER TABLE auth.users ADD CONSTRAINT users_phone_check CHECK (phone ~ '^[1-9][0-9]{1,14}$');
ALTER TABLE auth.users DROP CONSTRAINT users_phone_change_check;
ALTER TABLE auth.users ADD CONSTRAINT users_phone_change_check CHECK (phone_change ~ '^[1-9][0-9]{1,14}$');
ALTER TABLE auth.mfa_factors DROP CONSTRAINT mfa_factors_phone_check;
ALTER TABLE auth.mfa_factors ADD CONSTRAINT mfa_factors_phone_check CHECK (phone ~ '^[1-9][0-9]{1,14}$');

-- MFA rows get time-ordered ids like every other table's.
ALTER TABLE auth.mfa_factors ALTER COLUMN id SET DEFAULT internal.uuid_v7();
ALTER TABLE auth.mfa_challenges ALTER COLUMN id SET DEFAULT internal.uuid_v7();

-- Text messages (sign-in and verification codes) kept for the dev mailbox when no Send SMS hook is
-- configured: only ever written where the dev mailbox shows them.
CREATE TABLE mail.text_messages (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  kind text NOT NULL,
  to_phone text NOT NULL,
  channel text NOT NULL CHECK (channel IN ('sms', 'whatsapp')),
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX text_messages_recent_idx ON mail.text_messages (created_at DESC);
