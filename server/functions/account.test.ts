// The account page's own functions through supabase-js: "Download my data" (GET
// /functions/v1/account-data: the account, sessions, factors without secrets, the leads and the
// subscription under the address, the trail in the workspace; nobody else's) and "Delete account"
// (POST /functions/v1/account-deletion: the current password or an emailed code, then every
// session ends, the account is erased, the team's history says "a former member", one email).
import type { SupabaseClient } from "@supabase/supabase-js";
import { FunctionsHttpError } from "@supabase/supabase-js";
import { expect, it } from "vitest";
import { followUpChange } from "../../common/workspace.ts";
import { FUNCTIONS } from "../../common/functions.ts";
import {
  describeAuthSuite,
  describeAuthSuiteEachDatabase,
  type AuthSuite,
} from "../../tests/support/auth-suite.ts";
import { codeIn, PASSWORD, uniqueEmail } from "../../tests/support/auth.ts";
import { addressOf } from "../../tests/support/smtp.ts";
import { raiseToAal2, teamMember } from "../../tests/support/team.ts";

type Answer = { status: number; body: Record<string, unknown> };

async function call(
  supabase: SupabaseClient,
  name: string,
  init: { method: "GET" | "POST"; body?: object },
): Promise<Answer> {
  const { data, error } = await supabase.functions.invoke<Record<string, unknown>>(name, init);
  if (!error) return { status: 200, body: data! };
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response;
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  throw error;
}
const download = (supabase: SupabaseClient) =>
  call(supabase, FUNCTIONS.accountData, { method: "GET" });
const deletion = (supabase: SupabaseClient, body: object = {}) =>
  call(supabase, FUNCTIONS.accountDeletion, { method: "POST", body });

describeAuthSuite("account functions", (suite: AuthSuite) => {
  const { ctx, server, smtp, client, confirmedUser, emailTo } = suite;

  /** A contact message and a newsletter sign-up under the address, as the forms store them. */
  async function leadsUnder(email: string) {
    await ctx.db.query(
      `INSERT INTO public.contact_messages (name, email, phone, message)
       VALUES ('Ada Lovelace', $1, '+1 206 555 0101', 'Pricing?')`,
      [email],
    );
    await ctx.db.query("INSERT INTO public.newsletter_subscribers (email) VALUES ($1)", [email]);
  }

  it("downloads the caller's data: account, sessions, factors without secrets, leads, subscription", async () => {
    const { email, supabase } = await confirmedUser("export");
    await leadsUnder(email);
    await leadsUnder(uniqueEmail("export-other"));
    const { data: enrolled } = await supabase.auth.mfa.enroll({ factorType: "totp" });
    const secret = (enrolled as { totp: { secret: string } }).totp.secret;

    const res = await download(supabase);
    expect(res.status).toBe(200);
    const body = res.body as {
      account: { email: string; identities: unknown[] };
      sessions: { current: boolean }[];
      factors: { factor_type: string; status: string }[];
      oauth_grants: unknown[];
      recovery_codes: unknown;
      leads: Record<string, { email: string }[]>;
      newsletter_subscriptions: { email: string; status: string }[];
      trail: {
        lead_state_changes: unknown[];
        lead_notes: unknown[];
        webhook_endpoints_added: unknown[];
      };
    };
    expect(body.account).toMatchObject({ email, identities: [expect.anything()] });
    // The confirmation link's session and this one.
    expect(body.sessions).toHaveLength(2);
    expect(body.sessions.filter((s) => s.current)).toHaveLength(1);
    expect(body.factors).toEqual([
      expect.objectContaining({ factor_type: "totp", status: "unverified" }),
    ]);
    expect(body.recovery_codes).toBeNull();
    expect(body.oauth_grants).toEqual([]);
    expect(body.leads.contact_messages).toEqual([
      expect.objectContaining({ email, name: "Ada Lovelace", message: "Pricing?" }),
    ]);
    expect(body.leads.access_requests).toEqual([]);
    expect(body.newsletter_subscriptions).toEqual([
      expect.objectContaining({ email, status: "pending" }),
    ]);
    expect(body.trail).toEqual({
      lead_state_changes: [],
      lead_notes: [],
      webhook_endpoints_added: [],
    });
    const text = JSON.stringify(body);
    expect(text).not.toContain(secret);
    expect(text).not.toMatch(/encrypted_password|\$argon2/);
  });

  it("asks for a signed-in caller, and a second factor from an account that has one", async () => {
    const anonymous = client();
    expect(await download(anonymous)).toMatchObject({ status: 401, body: { code: "invalid_jwt" } });
    expect(await deletion(anonymous)).toMatchObject({ status: 401, body: { code: "invalid_jwt" } });

    const { email, supabase } = await confirmedUser("export-mfa");
    await raiseToAal2(supabase);
    const aal1 = client();
    await aal1.auth.signInWithPassword({ email, password: PASSWORD });
    for (const answer of [
      await download(aal1),
      await deletion(aal1, { current_password: PASSWORD }),
    ])
      expect(answer).toMatchObject({ status: 403, body: { code: "insufficient_aal" } });
    expect((await download(supabase)).status).toBe(200);
  });

  it("deletes an account with its current password: signed out everywhere, erased, told once", async () => {
    const { email, supabase, session } = await confirmedUser("delete");
    const other = client();
    await other.auth.signInWithPassword({ email, password: PASSWORD });

    expect(await deletion(supabase)).toMatchObject({
      status: 400,
      body: { code: "current_password_required" },
    });
    expect(await deletion(supabase, { current_password: "Wrong-Password-1" })).toMatchObject({
      status: 400,
      body: { code: "current_password_mismatch" },
    });
    expect(await deletion(supabase, { current_password: 42 })).toMatchObject({
      status: 400,
      body: { code: "bad_request" },
    });
    // Refused: nothing happened.
    expect((await other.auth.getUser()).error).toBeNull();

    expect(await deletion(supabase, { current_password: PASSWORD })).toEqual({
      status: 200,
      body: { deleted: true },
    });
    // Every session ended; the password no longer signs in.
    for (const device of [supabase, other])
      expect((await device.auth.getUser()).error).not.toBeNull();
    expect(
      (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toMatchObject({ code: "invalid_credentials" });
    // Erased: the row keeps only its id and dates; nothing else of the person is left.
    const [row] = await ctx.db.query<Record<string, unknown>>(
      "SELECT * FROM auth.users WHERE id = $1",
      [session.user.id],
    );
    expect(row).toMatchObject({
      email: null,
      phone: null,
      encrypted_password: null,
      raw_user_meta_data: {},
      raw_app_meta_data: {},
      last_sign_in_at: null,
    });
    expect(row!.deleted_at).not.toBeNull();
    for (const table of [
      "auth.identities",
      "auth.sessions",
      "auth.refresh_tokens",
      "auth.one_time_tokens",
      "auth.mfa_factors",
      "auth.oauth_consents",
      "auth.oauth_authorizations",
    ])
      expect(
        await suite.count(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1`, [
          session.user.id,
        ]),
      ).toBe(0);
    // The audit log has the deletion, once, under the address the account had.
    const deleted = await ctx.db.query<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM auth.audit_log_entries
       WHERE payload->>'actor_id' = $1 AND payload->>'action' = 'user_deleted'`,
      [session.user.id],
    );
    expect(deleted.map((e) => e.payload)).toMatchObject([
      { actor_username: email, log_type: "team", traits: { by: "self" } },
    ]);
    const goodbye = await emailTo(email, "Your Revwise account was deleted");
    expect(goodbye.text).toContain(`${server.url}/privacy-policy`);
    expect(
      smtp.messages.filter(
        (m) => addressOf(m) === email && m.subject === "Your Revwise account was deleted",
      ),
    ).toHaveLength(1);
    // The address is free: it can make a new account.
    expect((await client().auth.signUp({ email, password: PASSWORD })).error).toBeNull();
  });

  it("deletes an account without a password with the code it was emailed", async () => {
    const email = uniqueEmail("delete-code");
    const supabase = client();
    await supabase.auth.signInWithOtp({ email });
    const code = codeIn(await emailTo(email, /Revwise/));
    expect((await supabase.auth.verifyOtp({ email, token: code, type: "email" })).error).toBeNull();
    expect(await deletion(supabase)).toMatchObject({
      status: 400,
      body: { code: "reauthentication_needed" },
    });
    expect((await supabase.auth.reauthenticate()).error).toBeNull();
    const nonce = codeIn(await emailTo(email, "Your Revwise confirmation code"));
    const wrong = String((Number(nonce) + 1) % 1_000_000).padStart(6, "0");
    expect(await deletion(supabase, { nonce: wrong })).toMatchObject({
      status: 422,
      body: { code: "reauthentication_not_valid" },
    });
    expect(await deletion(supabase, { nonce })).toMatchObject({ status: 200 });
    await emailTo(email, "Your Revwise account was deleted");
  });

  it("leaves the team's history saying “a former member” where it named a deleted member", async () => {
    const leaving = await teamMember(suite, "leaving", { aal2: true });
    const staying = await teamMember(suite, "staying", { aal2: true });
    const [lead] = await ctx.db.query<{ id: string }>(
      `INSERT INTO public.contact_messages (name, email, phone, message)
       VALUES ('Cleo Park', $1, '+1 206 555 0101', 'Pricing?') RETURNING id`,
      [`cleo-${crypto.randomUUID()}@history.example`],
    );
    const untouched = { lost_reason: null, owner_id: null, next_step: null, due_on: null };
    const change = followUpChange(
      { kind: "contact", id: lead!.id, status: "new", ...untouched },
      { status: "qualified", lost_reason: "", owner_id: "", next_step: "", due_on: "" },
    )!;
    expect(
      (await leaving.supabase.from("lead_states").upsert(change, { onConflict: "kind,lead_id" }))
        .error,
    ).toBeNull();
    expect(
      (
        await leaving.supabase
          .from("lead_notes")
          .insert({ kind: "contact", lead_id: lead!.id, type: "call", body: "Called" })
      ).error,
    ).toBeNull();
    const history = async () =>
      (
        await staying.supabase
          .from("lead_state_changes")
          .select("changed_by_email")
          .eq("lead_id", lead!.id)
      ).data;
    const who = async () =>
      (
        await staying.supabase
          .from("leads")
          .select("status_updated_by_email")
          .eq("id", lead!.id)
          .single()
      ).data;
    expect(await history()).toEqual([{ changed_by_email: leaving.email }]);

    // The downloaded trail lists the change.
    const trail = (await download(leaving.supabase)).body.trail as {
      lead_state_changes: unknown[];
      lead_notes: unknown[];
    };
    expect(trail.lead_state_changes).toEqual([
      expect.objectContaining({ lead_id: lead!.id, fields: ["status"], status: "qualified" }),
    ]);
    expect(trail.lead_notes).toEqual([
      expect.objectContaining({ lead_id: lead!.id, type: "call", body: "Called" }),
    ]);

    expect((await deletion(leaving.supabase, { current_password: PASSWORD })).status).toBe(200);
    expect(await history()).toEqual([{ changed_by_email: "a former member" }]);
    expect(await who()).toEqual({ status_updated_by_email: "a former member" });
    expect(JSON.stringify(await history())).not.toContain(leaving.email);
  });
});

describeAuthSuiteEachDatabase("account functions at the same moment", (suite) => {
  const { ctx, client, confirmedUser, emailTo } = suite;

  it("erases an account once and emails once when two devices delete it at the same moment", async () => {
    const { email, supabase, session } = await confirmedUser("delete-race");
    const other = client();
    await other.auth.signInWithPassword({ email, password: PASSWORD });
    const answers = await Promise.all([
      deletion(supabase, { current_password: PASSWORD }),
      deletion(other, { current_password: PASSWORD }),
    ]);
    // Each either deleted it or found its session already gone with the account.
    expect(answers.some((a) => a.status === 200)).toBe(true);
    for (const a of answers) expect([200, 401]).toContain(a.status);
    await emailTo(email, "Your Revwise account was deleted");
    expect(
      await suite.count(
        "SELECT count(*)::int AS n FROM mail.outbox WHERE to_address = $1 AND subject = $2",
        [email, "Your Revwise account was deleted"],
      ),
    ).toBe(1);
    const [row] = await ctx.db.query<{ deleted_at: Date | null }>(
      "SELECT deleted_at FROM auth.users WHERE id = $1",
      [session.user.id],
    );
    expect(row!.deleted_at).not.toBeNull();
  });
});
