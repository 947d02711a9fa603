-- The OAuth 2.1 server (GoTrue's oauth_clients, oauth_authorizations, oauth_consents and the
-- sessions' client and scopes): other tools act for a person with that person's consent.
-- A client's secret is stored as its SHA-256 only (a public client has none). A client is
-- deleted softly (deleted_at), as GoTrue does; its authorizations, consents and sessions stay
-- unusable because every lookup skips a deleted client.
CREATE TABLE auth.oauth_clients (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  client_secret_hash text,
  registration_type text NOT NULL CHECK (registration_type IN ('dynamic', 'manual')),
  client_type text NOT NULL DEFAULT 'confidential' CHECK (client_type IN ('public', 'confidential')),
  token_endpoint_auth_method text NOT NULL
    CHECK (token_endpoint_auth_method IN ('none', 'client_secret_basic', 'client_secret_post')),
  redirect_uris text[] NOT NULL,
  grant_types text[] NOT NULL,
  client_name text CHECK (char_length(client_name) <= 1024),
  client_uri text CHECK (char_length(client_uri) <= 2048),
  logo_uri text CHECK (char_length(logo_uri) <= 2048),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  CHECK ((client_type = 'public') = (client_secret_hash IS NULL))
);

-- An authorization request from GET /oauth/authorize to the code's exchange: pending until the
-- person decides, then approved (with a code) or denied; expired after its time. The code's
-- exchange marks it used and names the session it started, so a code that comes back ends it.
CREATE TABLE auth.oauth_authorizations (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  authorization_id text NOT NULL UNIQUE,
  client_id uuid NOT NULL REFERENCES auth.oauth_clients (id) ON DELETE CASCADE,
  user_id uuid REFERENCES auth.users (id) ON DELETE CASCADE,
  redirect_uri text NOT NULL CHECK (char_length(redirect_uri) <= 2048),
  scope text NOT NULL CHECK (char_length(scope) <= 4096),
  state text CHECK (char_length(state) <= 4096),
  resource text CHECK (char_length(resource) <= 2048),
  code_challenge text NOT NULL CHECK (char_length(code_challenge) <= 128),
  code_challenge_method text NOT NULL CHECK (code_challenge_method = 's256'),
  nonce text CHECK (char_length(nonce) <= 255),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'used')),
  authorization_code_hash text UNIQUE,
  session_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  approved_at timestamptz,
  CHECK (expires_at > created_at)
);
CREATE INDEX oauth_authorizations_client_id_idx ON auth.oauth_authorizations (client_id);
CREATE INDEX oauth_authorizations_user_id_idx ON auth.oauth_authorizations (user_id);
CREATE INDEX oauth_authorizations_expires_at_idx ON auth.oauth_authorizations (expires_at);

-- What a person allowed a client (its scopes), once per person and client; revoked_at when they
-- took it back (a later approval grants it again).
CREATE TABLE auth.oauth_consents (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  client_id uuid NOT NULL REFERENCES auth.oauth_clients (id) ON DELETE CASCADE,
  scopes text NOT NULL CHECK (char_length(trim(scopes)) > 0 AND char_length(scopes) <= 2048),
  granted_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  UNIQUE (user_id, client_id),
  CHECK (revoked_at IS NULL OR revoked_at >= granted_at)
);
CREATE INDEX oauth_consents_client_id_idx ON auth.oauth_consents (client_id);

-- A session a client started by a code: its tokens carry the client's id and the scopes, and
-- only that client refreshes them.
ALTER TABLE auth.sessions
  ADD COLUMN oauth_client_id uuid REFERENCES auth.oauth_clients (id) ON DELETE CASCADE,
  ADD COLUMN scopes text;
CREATE INDEX sessions_oauth_client_id_idx ON auth.sessions (oauth_client_id);
