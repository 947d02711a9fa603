-- The addresses an account had before its current one (decision 0041): whoever changes an address
-- (an email change confirmed, an admin's update, an unlinked email identity), the address it left
-- is kept here, so that the team's tools find a member by an address they used before. A soft
-- deletion keeps nothing (models/user-admin.ts deletes the rows); a hard one cascades.
CREATE TABLE auth.former_emails (
  email text NOT NULL CHECK (email = lower(email)),
  user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  left_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (email, user_id)
);
CREATE INDEX former_emails_user_id_idx ON auth.former_emails (user_id);

CREATE FUNCTION internal.keep_former_email() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.email IS NOT NULL AND OLD.email IS DISTINCT FROM NEW.email AND NEW.deleted_at IS NULL THEN
    INSERT INTO auth.former_emails (email, user_id) VALUES (lower(OLD.email), OLD.id)
    ON CONFLICT (email, user_id) DO UPDATE SET left_at = now();
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER users_keep_former_email AFTER UPDATE OF email ON auth.users
FOR EACH ROW EXECUTE FUNCTION internal.keep_former_email();
