-- Webhooks to the CRM: every new lead is delivered to each enabled endpoint as a signed JSON event
-- (Standard Webhooks). The deliveries are an outbox written by the statement that stores the lead
-- (so a lead and its deliveries are stored together or not at all) and delivered by a worker in
-- every instance with claims and leases, like mail.outbox (0003, 0007).

-- Where events go. The workspace manages these rows; LEAD_WEBHOOK_URL is kept in one of them under
-- a fixed id (server/webhooks/endpoints.ts).
CREATE TABLE public.webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  url text NOT NULL CHECK (url ~ '^https?://'),
  -- Standard Webhooks' symmetric secret: whsec_ and the key in base64.
  secret text NOT NULL CHECK (secret ~ '^whsec_[A-Za-z0-9+/=]{16,}$'),
  description text NOT NULL DEFAULT '',
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid REFERENCES auth.users (id) ON DELETE SET NULL
);
-- Storing a lead reads the enabled endpoints (usually none or a few) through this index.
CREATE INDEX webhook_endpoints_enabled_idx ON public.webhook_endpoints (enabled);
CREATE INDEX webhook_endpoints_created_by_idx ON public.webhook_endpoints (created_by);

-- One row per (lead, endpoint): its id is the event's webhook-id, the same on every attempt, so a
-- receiver can drop a duplicate. The payload is the event body, fixed when the lead is stored.
CREATE TABLE public.webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT internal.uuid_v7(),
  endpoint_id uuid NOT NULL REFERENCES public.webhook_endpoints (id) ON DELETE CASCADE,
  lead_id uuid NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  claim_token uuid,
  last_status integer,
  last_error text,
  delivered_at timestamptz,
  failed_at timestamptz,
  CONSTRAINT webhook_deliveries_endpoint_lead_key UNIQUE (endpoint_id, lead_id)
);
CREATE INDEX webhook_deliveries_due_idx ON public.webhook_deliveries (next_attempt_at)
  WHERE delivered_at IS NULL AND failed_at IS NULL;
CREATE INDEX webhook_deliveries_lead_idx ON public.webhook_deliveries (lead_id);
