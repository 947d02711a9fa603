-- A single sign-on finds the account of another identity at the same provider by its address
-- (auth/models/external-identities.ts): by this index, not by reading every identity of that
-- company's provider.
CREATE INDEX identities_provider_email_idx
ON auth.identities (provider, lower(identity_data->>'email'));
