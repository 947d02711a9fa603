-- The last TOTP time step a factor accepted: a code works once, so a code of that step or an
-- earlier one is refused.
ALTER TABLE auth.mfa_factors ADD COLUMN last_used_step bigint;

-- A removed factor lowers the sessions it raised; removing a user's factors (or the user) finds
-- them by this index rather than by reading every session.
CREATE INDEX sessions_factor_id_idx ON auth.sessions (factor_id);
