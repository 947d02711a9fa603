-- The site's leads (public schema, exposed through /rest/v1 and /functions/v1). Every lead keeps
-- when it arrived and, where the browser sent them, the page, referrer and UTM parameters.
-- Emails are stored lower-cased; uniqueness is case-insensitive.

-- {page, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content}, validated by the
-- server (common/leads.ts leadSourceSchema); bounded here as a last line of defence.
CREATE DOMAIN public.lead_source AS jsonb
  CHECK (jsonb_typeof(VALUE) = 'object' AND length(VALUE::text) <= 8192);

CREATE TABLE public.newsletter_subscribers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL CONSTRAINT newsletter_subscribers_email_check
    CHECK (email = lower(email) AND length(email) <= 254 AND email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  source public.lead_source NOT NULL DEFAULT '{}'
);
CREATE UNIQUE INDEX newsletter_subscribers_email_key ON public.newsletter_subscribers (lower(email));

CREATE TABLE public.demo_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL CONSTRAINT demo_requests_email_check
    CHECK (email = lower(email) AND length(email) <= 254 AND email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  source public.lead_source NOT NULL DEFAULT '{}',
  -- Business addresses only (the eight free-mail providers of the spec).
  CONSTRAINT demo_requests_business_email_check CHECK (split_part(email, '@', 2) NOT IN
    ('gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'aol.com', 'icloud.com', 'mail.com', 'protonmail.com'))
);
CREATE UNIQUE INDEX demo_requests_email_key ON public.demo_requests (lower(email));

CREATE TABLE public.access_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  first_name text NOT NULL CHECK (length(first_name) BETWEEN 2 AND 100),
  last_name text NOT NULL CHECK (length(last_name) BETWEEN 2 AND 100),
  email text NOT NULL CHECK (email = lower(email) AND length(email) <= 254),
  company_name text NOT NULL CHECK (length(company_name) BETWEEN 2 AND 200),
  company_size text NOT NULL CHECK (company_size IN ('1-10', '11-50', '51-200', '201-1000', '1000+')),
  department text NOT NULL CHECK (department IN ('Sales', 'Marketing', 'Customer Success', 'Product', 'Engineering', 'Operations', 'Other')),
  created_at timestamptz NOT NULL DEFAULT now(),
  source public.lead_source NOT NULL DEFAULT '{}'
);

CREATE TABLE public.contact_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  email text NOT NULL CHECK (email = lower(email) AND length(email) <= 254),
  phone text NOT NULL CHECK (length(phone) BETWEEN 1 AND 40),
  message text NOT NULL CHECK (length(message) BETWEEN 1 AND 5000),
  created_at timestamptz NOT NULL DEFAULT now(),
  source public.lead_source NOT NULL DEFAULT '{}'
);

-- The Request Demo page (/request-demo).
CREATE TABLE public.demo_form_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  email text NOT NULL CHECK (email = lower(email) AND length(email) <= 254),
  phone text NOT NULL CHECK (length(phone) BETWEEN 1 AND 40),
  company text NOT NULL CHECK (length(company) BETWEEN 1 AND 200),
  position text NOT NULL CHECK (length(position) BETWEEN 1 AND 100),
  website text CHECK (length(website) <= 2048),
  created_at timestamptz NOT NULL DEFAULT now(),
  source public.lead_source NOT NULL DEFAULT '{}'
);
