-- SAML 2.0 single sign-on, GoTrue's tables: a company's identity provider (sso_providers, with its
-- SAML side in saml_providers: the entity id, the metadata as given or fetched, the attribute
-- mapping) and the email domains that lead to it (sso_domains). A sign-in's request to the
-- provider is kept in its flow state (the RelayState is the flow state's id, the request's id is
-- the one the provider's answer must be InResponseTo), so any instance can finish it, once.
CREATE TABLE auth.sso_providers (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  resource_id text CHECK (resource_id IS NULL OR resource_id <> ''),
  disabled boolean,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX sso_providers_resource_id_key ON auth.sso_providers (lower(resource_id));

CREATE TABLE auth.saml_providers (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  sso_provider_id uuid NOT NULL UNIQUE REFERENCES auth.sso_providers (id) ON DELETE CASCADE,
  entity_id text NOT NULL UNIQUE CHECK (entity_id <> ''),
  metadata_xml text NOT NULL CHECK (metadata_xml <> ''),
  metadata_url text CHECK (metadata_url IS NULL OR metadata_url <> ''),
  attribute_mapping jsonb NOT NULL DEFAULT '{}',
  name_id_format text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE auth.sso_domains (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  sso_provider_id uuid NOT NULL REFERENCES auth.sso_providers (id) ON DELETE CASCADE,
  domain text NOT NULL CHECK (domain <> '' AND domain = lower(domain)),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX sso_domains_domain_key ON auth.sso_domains (domain);
CREATE INDEX sso_domains_sso_provider_id_idx ON auth.sso_domains (sso_provider_id);

-- A single sign-on's flow state: which provider was asked, and the id of the request it was sent.
ALTER TABLE auth.flow_states
  ADD COLUMN sso_provider_id uuid REFERENCES auth.sso_providers (id) ON DELETE CASCADE,
  ADD COLUMN saml_request_id text;
CREATE INDEX flow_states_sso_provider_id_idx ON auth.flow_states (sso_provider_id)
  WHERE sso_provider_id IS NOT NULL;

-- GoTrue's is_sso_user: an account made by a company's single sign-on lives beside any other
-- account with its address (the company vouches for it, not the address's owner), so an address
-- is unique only among the accounts that are not single sign-on's.
ALTER TABLE auth.users ADD COLUMN is_sso_user boolean NOT NULL DEFAULT false;
DROP INDEX auth.users_email_key;
CREATE UNIQUE INDEX users_email_key ON auth.users (lower(email)) WHERE NOT is_sso_user;
CREATE INDEX users_sso_email_idx ON auth.users (lower(email)) WHERE is_sso_user;
