-- Proof-of-work challenges already redeemed: each solution is accepted once (until it expires).
CREATE TABLE internal.captcha_redemptions (
  nonce text PRIMARY KEY,
  expires_at timestamptz NOT NULL,
  redeemed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX captcha_redemptions_expires_idx ON internal.captcha_redemptions (expires_at);
