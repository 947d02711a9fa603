-- An address confirmed without any proof (decision 0041): with MAILER_AUTOCONFIRM=true a sign-up's
-- address, or an anonymous user's new one, is confirmed as given, and whoever signed up first holds
-- it. Until a link or code sent there is used (or an admin confirms it), the first such proof voids
-- the password and sessions made before, as for an unconfirmed account, and no team role applies.
ALTER TABLE auth.users ADD COLUMN email_unproven boolean NOT NULL DEFAULT false;
