-- One-time recovery codes, a second factor for a lost phone: a user's set (made at once, replaced
-- whole) carries the wrong answers in a row and their lock; each code is stored as an HMAC under a
-- key derived from the server's secret, and is used once.
CREATE TABLE auth.mfa_recovery_sets (
  user_id uuid PRIMARY KEY REFERENCES auth.users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  failed_attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz
);

CREATE TABLE auth.mfa_recovery_codes (
  user_id uuid NOT NULL REFERENCES auth.mfa_recovery_sets (user_id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);
