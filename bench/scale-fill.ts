// The data of `npm run bench:scale`: a database as a busy site has it after years, written by the
// database itself (INSERT … SELECT generate_series, one statement per table) so millions of rows
// take minutes. Every user can sign in with the same password (one argon2id hash, computed once).
import type { Queryable } from "../server/db/database.ts";

export type FillSizes = { users: number; leads: number; emails: number };

/**
 * The lead tables and their shares of the lead rows. Each row carries a source as the site's forms
 * send it (page and UTM parameters), as do the rows bench/lib.ts's uniqueInsert posts: after the
 * fill's VACUUM every page lists its last few free bytes as free space, and rows smaller than the
 * filled ones would go there, one per old page, as rows arriving one by one over years never do.
 */
const LEADS: { table: string; share: number; columns: string; values: string }[] = [
  {
    table: "newsletter_subscribers",
    share: 0.4,
    columns: "email",
    values: "'reader-' || i || '@scale.example'",
  },
  {
    table: "demo_requests",
    share: 0.2,
    columns: "email",
    values: "'demo-' || i || '@scale.example'",
  },
  {
    table: "access_requests",
    share: 0.2,
    columns: "first_name, last_name, email, company_name, company_size, department",
    values: `'First' || i, 'Last' || i, 'access-' || i || '@scale.example', 'Company ' || i,
      (ARRAY['1-10', '11-50', '51-200', '201-1000', '1000+'])[1 + i % 5], 'Sales'`,
  },
  {
    table: "contact_messages",
    share: 0.1,
    columns: "name, email, phone, message",
    values: `'Name ' || i, 'contact-' || i || '@scale.example', '+1 555 ' || i,
      'A question about pricing for a team of ' || i || ' people.'`,
  },
  {
    table: "demo_form_requests",
    share: 0.1,
    columns: "name, email, phone, company, position, website",
    values: `'Name ' || i, 'form-' || i || '@scale.example', '+1 555 ' || i, 'Company ' || i,
      'Head of Sales', 'https://company-' || i || '.example'`,
  },
];

/** Sign-in email of the fill's user number n (1-based). */
export const fillUserEmail = (n: number) => `user-${n}@scale.example`;

/** Rows over the past year, as a site that has run that long has them. */
const PAST_YEAR = "now() - random() * interval '365 days'";
/** A time per row of generate_series(…) i (a lateral select that names i runs once per row). */
const ROW_TIME = `LATERAL (SELECT now() - (random() + 0 * i) * interval '365 days' AS t) c`;

/** Fills a migrated, empty database; logs each table's time through `progress`. */
export async function fill(
  db: Queryable,
  sizes: FillSizes,
  passwordHash: string,
  progress: (line: string) => void,
): Promise<void> {
  const step = async (what: string, sql: string, params: unknown[] = []) => {
    const started = performance.now();
    await db.query(sql, params);
    progress(`${what}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  await step(
    `${sizes.users} users`,
    `INSERT INTO auth.users (email, encrypted_password, email_confirmed_at, last_sign_in_at, created_at, updated_at)
     SELECT 'user-' || i || '@scale.example', $2, t, t, t, t
     FROM generate_series(1, $1::int) i, ${ROW_TIME}`,
    [sizes.users, passwordHash],
  );
  await step(
    "their identities",
    `INSERT INTO auth.identities (user_id, provider, provider_id, identity_data, last_sign_in_at, created_at, updated_at)
     SELECT id, 'email', id::text, jsonb_build_object('sub', id, 'email', email, 'email_verified', true),
       created_at, created_at, created_at
     FROM auth.users`,
  );
  await step(
    "a session each",
    `INSERT INTO auth.sessions (user_id, amr, user_agent, ip, created_at, updated_at)
     SELECT id, jsonb_build_array(jsonb_build_object('method', 'password',
         'timestamp', extract(epoch FROM created_at)::bigint)),
       'Mozilla/5.0 (X11; Linux x86_64) Chrome/142.0', '203.0.113.' || (random() * 255)::int,
       created_at, created_at
     FROM auth.users`,
  );
  await step(
    "a refresh token each",
    `INSERT INTO auth.refresh_tokens (token_hash, session_id, user_id, created_at)
     SELECT encode(sha256(convert_to(id::text, 'UTF8')), 'hex'), id, user_id, created_at FROM auth.sessions`,
  );
  for (const lead of LEADS) {
    const rows = Math.round(sizes.leads * lead.share);
    await step(
      `${rows} ${lead.table}`,
      `INSERT INTO public.${lead.table} (${lead.columns}, source, created_at)
       SELECT ${lead.values},
         jsonb_build_object('page', '/pricing', 'utm_source', 'newsletter', 'utm_campaign', 'c' || i % 100),
         ${PAST_YEAR}
       FROM generate_series(1, $1::int) i`,
      [rows],
    );
  }
  await step(
    `${sizes.emails} delivered emails`,
    `INSERT INTO mail.outbox (kind, to_address, subject, text_body, html_body, created_at,
       attempts, next_attempt_at, sent_at)
     SELECT (ARRAY['auth-confirmation', 'auth-recovery', 'notify-demo-request', 'demo-access',
         'notify-contact-message', 'notify-access-request'])[1 + i % 6],
       'user-' || i || '@scale.example', 'Your Revwise demo is ready',
       'Hello, thank you for your interest in Revwise. Open this link: https://revwise.example/demo/' || i,
       '<p>Hello, thank you for your interest in Revwise.</p><p><a href="https://revwise.example/demo/' || i
         || '">Open your demo</a></p>',
       t, 1, t, t + interval '2 seconds'
     FROM generate_series(1, $1::int) i, ${ROW_TIME}`,
    [sizes.emails],
  );
  // A database that has run for a while has its statistics and visibility map (autovacuum).
  await step("VACUUM ANALYZE", "VACUUM ANALYZE");
  await step("CHECKPOINT", "CHECKPOINT");
}
