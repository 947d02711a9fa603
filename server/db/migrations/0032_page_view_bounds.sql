-- Page analytics with bounded growth (decision 0042). The visitors' codes of a day are counted into
-- analytics.daily_visitors once the day after it is over, and deleted: a code's only use is to
-- count a visitor once on its day, and the day's salt is already gone. A day keeps a bounded set
-- of referring sites and campaigns (analytics.day_values, kept as long as the codes); views from
-- others count under "(other)".
CREATE TABLE analytics.daily_visitors (
  day date NOT NULL,
  path text NOT NULL,
  visitors integer NOT NULL,
  PRIMARY KEY (day, path)
);

CREATE TABLE analytics.day_values (
  day date NOT NULL,
  kind text NOT NULL CHECK (kind IN ('referrer', 'campaign')),
  value text NOT NULL,
  PRIMARY KEY (day, kind, value)
);

-- The days already counted keep the referring sites and campaigns they have.
INSERT INTO analytics.day_values (day, kind, value)
SELECT DISTINCT day, 'referrer', referrer FROM analytics.page_views WHERE referrer <> ''
  AND day >= current_date - 1
UNION
SELECT DISTINCT day, 'campaign', campaign FROM analytics.page_views WHERE campaign <> ''
  AND day >= current_date - 1;
