-- Wrong codes are counted where the code lives, so every instance sees the same count: an emailed
-- or texted code dies after a few wrong tries (found by the address or number it went to), an MFA
-- challenge likewise, and a factor answered wrong repeatedly is locked for a while.
ALTER TABLE auth.one_time_tokens ADD COLUMN failed_attempts integer NOT NULL DEFAULT 0;
CREATE INDEX one_time_tokens_relates_to_idx ON auth.one_time_tokens (relates_to, token_type);

ALTER TABLE auth.mfa_challenges ADD COLUMN failed_attempts integer NOT NULL DEFAULT 0;

ALTER TABLE auth.mfa_factors ADD COLUMN failed_attempts integer NOT NULL DEFAULT 0;
ALTER TABLE auth.mfa_factors ADD COLUMN locked_until timestamptz;
