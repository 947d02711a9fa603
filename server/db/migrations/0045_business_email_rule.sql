-- Which addresses the Watch Demo dialog refuses is the server's one rule, shared with the site's
-- form (common/business-email.ts: the spec's eight providers and a maintained list of thousands);
-- the table no longer keeps a second, shorter copy of it.
ALTER TABLE public.demo_requests DROP CONSTRAINT demo_requests_business_email_check;
