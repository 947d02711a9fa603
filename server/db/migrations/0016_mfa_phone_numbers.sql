-- Phone factors take the numbers accounts take (E.164, 2 to 15 digits, as 0010 made them for users).
ALTER TABLE auth.mfa_factors DROP CONSTRAINT mfa_factors_phone_check;
ALTER TABLE auth.mfa_factors ADD CONSTRAINT mfa_factors_phone_check CHECK (phone ~ '^[1-9][0-9]{1,14}$');
