-- Where each day's visitors came from, for the workspace's Sources (decision 0042): one row per
-- visitor code and day, with the source of its first counted view that day (the referring site's
-- host, and the UTM source, medium and campaign of the page's address; "" for none), the views it
-- made that day, and whether it sent a form. Like the other codes, a day's rows are counted into
-- analytics.daily_sources once the day after it is over, and deleted.
CREATE TABLE analytics.visit_sources (
  day date NOT NULL,
  visitor bytea NOT NULL,
  referrer text NOT NULL CHECK (length(referrer) <= 255),
  source text NOT NULL CHECK (length(source) <= 100),
  medium text NOT NULL CHECK (length(medium) <= 100),
  campaign text NOT NULL CHECK (length(campaign) <= 100),
  views integer NOT NULL,
  converted boolean NOT NULL DEFAULT false,
  PRIMARY KEY (day, visitor)
);

CREATE TABLE analytics.daily_sources (
  day date NOT NULL,
  referrer text NOT NULL,
  source text NOT NULL,
  medium text NOT NULL,
  campaign text NOT NULL,
  views integer NOT NULL,
  visitors integer NOT NULL,
  converted integer NOT NULL,
  PRIMARY KEY (day, referrer, source, medium, campaign)
);
