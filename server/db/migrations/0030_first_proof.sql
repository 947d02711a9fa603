-- Pre-account hijacking (decision 0041): whether the confirmation of a not yet confirmed account
-- voids its password. Set once somebody other than the sign-up that set the password asked for a
-- link or code to the address or number (a sign-in link or code, a second sign-up): confirming
-- then proves only that the owner got that mail, not that the owner chose the password.
ALTER TABLE auth.users ADD COLUMN confirmation_voids_password boolean NOT NULL DEFAULT false;
