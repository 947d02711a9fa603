-- Sign-in with an external provider (Google, Microsoft, GitHub, GitLab, Keycloak): the flow state
-- made by GET /authorize is the `state` the provider hands back to /callback, and holds what the
-- provider's answer is checked against (the nonce and PKCE verifier sent to it), where the browser
-- goes next, and, for a signed-in user's link of another identity, whose account it is. An
-- implicit flow has no code challenge of its own; the callback claims the state once.
ALTER TABLE auth.flow_states
  ALTER COLUMN code_challenge DROP NOT NULL,
  ALTER COLUMN code_challenge_method DROP NOT NULL,
  ADD COLUMN provider_type text,
  ADD COLUMN provider_code_verifier text,
  ADD COLUMN provider_nonce text,
  ADD COLUMN referrer text,
  ADD COLUMN linking_target_id uuid REFERENCES auth.users (id) ON DELETE CASCADE,
  ADD COLUMN claimed_at timestamptz,
  -- The provider's own tokens, sealed, from the callback to the code's exchange (PKCE).
  ADD COLUMN provider_access_token text,
  ADD COLUMN provider_refresh_token text;
CREATE INDEX flow_states_linking_target_id_idx ON auth.flow_states (linking_target_id)
  WHERE linking_target_id IS NOT NULL;
