-- Accounts II: users reachable by phone or by nothing yet (anonymous), soft deletion,
-- reauthentication, one-time tokens for every purpose GoTrue has, and MFA factors and challenges.

-- A user has an email, a phone, both, or (anonymous) neither; a user who signed in by link or code
-- only, or who was invited, has no password.
ALTER TABLE auth.users
  ALTER COLUMN email DROP NOT NULL,
  ALTER COLUMN encrypted_password DROP NOT NULL,
  ADD COLUMN phone text CHECK (phone ~ '^[1-9][0-9]{7,14}$'),
  ADD COLUMN phone_confirmed_at timestamptz,
  ADD COLUMN phone_change text CHECK (phone_change ~ '^[1-9][0-9]{7,14}$'),
  ADD COLUMN phone_change_sent_at timestamptz,
  ADD COLUMN reauthentication_sent_at timestamptz,
  ADD COLUMN invited_at timestamptz,
  ADD COLUMN is_anonymous boolean NOT NULL DEFAULT false,
  ADD COLUMN deleted_at timestamptz;
CREATE UNIQUE INDEX users_phone_key ON auth.users (phone);

-- Every purpose GoTrue keeps a one-time token for. relates_to is the address or the phone number
-- the token was sent to.
ALTER TABLE auth.one_time_tokens DROP CONSTRAINT one_time_tokens_token_type_check;
ALTER TABLE auth.one_time_tokens ADD CONSTRAINT one_time_tokens_token_type_check CHECK (
  token_type IN ('confirmation', 'recovery', 'email_change_new', 'email_change_current',
                 'reauthentication', 'phone_change', 'magiclink', 'invite')
);

-- MFA factors: TOTP (the secret encrypted with the server's key) and phone. A factor is unverified
-- until its first successful challenge.
CREATE TABLE auth.mfa_factors (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  friendly_name text NOT NULL DEFAULT '',
  factor_type text NOT NULL CHECK (factor_type IN ('totp', 'phone')),
  status text NOT NULL DEFAULT 'unverified' CHECK (status IN ('unverified', 'verified')),
  secret text,
  phone text CHECK (phone ~ '^[1-9][0-9]{7,14}$'),
  last_challenged_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mfa_factors_user_id_idx ON auth.mfa_factors (user_id, created_at);
CREATE UNIQUE INDEX mfa_factors_user_friendly_name_key ON auth.mfa_factors (user_id, friendly_name)
  WHERE friendly_name <> '';
CREATE UNIQUE INDEX mfa_factors_user_phone_key ON auth.mfa_factors (user_id, phone);

-- A challenge is answered once; a phone challenge keeps the hash of the code it sent.
CREATE TABLE auth.mfa_challenges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  factor_id uuid NOT NULL REFERENCES auth.mfa_factors (id) ON DELETE CASCADE,
  ip_address text,
  otp_code text,
  created_at timestamptz NOT NULL DEFAULT now(),
  verified_at timestamptz
);
CREATE INDEX mfa_challenges_factor_id_idx ON auth.mfa_challenges (factor_id);

-- The factor that raised a session to aal2.
ALTER TABLE auth.sessions ADD COLUMN factor_id uuid REFERENCES auth.mfa_factors (id) ON DELETE SET NULL;
