-- Webhook endpoints' secrets are stored sealed (AES-256-GCM under a key derived from the server's
-- secret: "v1:" and base64, security/secret-box.ts). A secret written in plain, before this change
-- or by hand, still signs its events and is sealed at the next start.
ALTER TABLE public.webhook_endpoints DROP CONSTRAINT webhook_endpoints_secret_check;
ALTER TABLE public.webhook_endpoints ADD CONSTRAINT webhook_endpoints_secret_check
  CHECK (secret ~ '^whsec_[A-Za-z0-9+/=]{16,}$' OR secret ~ '^v1:[A-Za-z0-9+/=]{40,}$');
