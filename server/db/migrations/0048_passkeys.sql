-- Passkeys and WebAuthn second factors (decision 0059).
--
-- A passkey signs its person in: GoTrue's webauthn_credentials, one row per credential, with its
-- public key (COSE), the authenticator's signature counter (a counter going backwards is refused)
-- and its backup flags. A credential id is registered once across all accounts.
CREATE TABLE auth.webauthn_credentials (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  credential_id bytea NOT NULL,
  public_key bytea NOT NULL,
  attestation_type text NOT NULL DEFAULT '',
  aaguid uuid,
  sign_count bigint NOT NULL DEFAULT 0,
  transports jsonb NOT NULL DEFAULT '[]',
  backup_eligible boolean NOT NULL DEFAULT false,
  backed_up boolean NOT NULL DEFAULT false,
  friendly_name text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE UNIQUE INDEX webauthn_credentials_credential_id_key ON auth.webauthn_credentials (credential_id);
CREATE INDEX webauthn_credentials_user_id_idx ON auth.webauthn_credentials (user_id, created_at);

-- A passkey ceremony's challenge, kept in the database so that any instance can finish what
-- another began: taken once (DELETE … RETURNING), dead after expires_at, and deleted by the hourly
-- cleanup once past it. A registration's belongs to its user; a sign-in's to nobody yet.
CREATE TABLE auth.webauthn_challenges (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  user_id uuid REFERENCES auth.users (id) ON DELETE CASCADE,
  challenge_type text NOT NULL CHECK (challenge_type IN ('registration', 'authentication')),
  session_data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX webauthn_challenges_user_id_idx ON auth.webauthn_challenges (user_id);
CREATE INDEX webauthn_challenges_expires_at_idx ON auth.webauthn_challenges (expires_at);

-- A security key (or a passkey) as a second factor: GoTrue's factor_type "webauthn". The factor
-- keeps its credential once verified (id, public key, counter, transports, backup flags); its
-- challenge keeps what the ceremony is checked against (the challenge and whether it creates a
-- credential or asks for an assertion).
ALTER TABLE auth.mfa_factors DROP CONSTRAINT mfa_factors_factor_type_check;
ALTER TABLE auth.mfa_factors
  ADD CONSTRAINT mfa_factors_factor_type_check CHECK (factor_type IN ('totp', 'phone', 'webauthn')),
  ADD COLUMN web_authn_credential jsonb,
  ADD COLUMN web_authn_aaguid uuid;
ALTER TABLE auth.mfa_challenges ADD COLUMN web_authn_session_data jsonb;
