-- "Download my data" finds a person's form requests by their address (functions/account-data.ts):
-- stored lower-cased, looked up by lower(email) as demo_requests' and the newsletter's unique keys
-- already are.
CREATE INDEX access_requests_email_idx ON public.access_requests (lower(email));
CREATE INDEX contact_messages_email_idx ON public.contact_messages (lower(email));
CREATE INDEX demo_form_requests_email_idx ON public.demo_form_requests (lower(email));
