-- A redeemed solution remembers the submission it was spent on (a digest of its fields) and the
-- lead that submission stored: the same submission sent again, because its answer was lost on
-- the way, gets the same answer, and nothing is stored or sent twice.
ALTER TABLE internal.captcha_redemptions
  ADD COLUMN submission text,
  ADD COLUMN lead_id uuid;
