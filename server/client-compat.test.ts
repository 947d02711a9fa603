// Sites in the wild keep running older supabase-js releases: every call the site makes behaves
// the same through the current client and through 2.109 (the last release before the client
// required Node 22), against the same server.
import { createClient as createCurrent } from "@supabase/supabase-js";
import { createClient as create2109 } from "supabase-js-2.109";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueIp } from "../tests/support/api-server.ts";
import { codeIn, emailTo, PASSWORD, uniqueEmail } from "../tests/support/auth.ts";
import { solvedPayload } from "../tests/support/captcha.ts";
import type { Database } from "./db/database.ts";
import { useTestServer } from "../tests/support/test-server.ts";
import { openTestPglite } from "../tests/support/pglite.ts";

const CLIENTS = [
  { name: "current", createClient: createCurrent },
  { name: "2.109", createClient: create2109 as unknown as typeof createCurrent },
] as const;

describe.each(CLIENTS)("supabase-js $name", ({ createClient }) => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestPglite();
  });
  afterAll(async () => {
    await db.close(); // hooks after the tests run last to first: once the server has closed
  });
  const { server, smtp } = useTestServer(() => db, {
    env: { RATE_LIMIT_EMAIL_SENT: "100000", RATE_LIMIT_LEAD_EMAIL_SENT: "100000" },
  });

  const client = () => {
    const storage = new Map<string, string>();
    return createClient(server.url, server.anonKey, {
      global: { headers: { "x-forwarded-for": uniqueIp() } },
      auth: {
        autoRefreshToken: false,
        detectSessionInUrl: false,
        persistSession: true,
        storage: {
          getItem: (k) => storage.get(k) ?? null,
          setItem: (k, v) => void storage.set(k, v),
          removeItem: (k) => void storage.delete(k),
        },
      },
    });
  };

  it("signs up, confirms by code, signs in, refreshes, updates the user and signs out", async () => {
    const email = uniqueEmail("compat");
    const supabase = client();
    const signUp = await supabase.auth.signUp({ email, password: PASSWORD });
    expect(signUp.error).toBeNull();
    expect(signUp.data.session).toBeNull();

    const code = codeIn(await emailTo(smtp, email, "Confirm your Revwise account"));
    const verified = await supabase.auth.verifyOtp({ email, token: code, type: "signup" });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
    await supabase.auth.signOut({ scope: "local" });

    const signIn = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toBeNull();
    const first = signIn.data.session!;

    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session!.refresh_token).not.toBe(first.refresh_token);

    const updated = await supabase.auth.updateUser({ data: { name: "Ada" } });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toMatchObject({ name: "Ada" });
    const { data: got } = await supabase.auth.getUser();
    expect(got.user?.id).toBe(first.user.id);

    expect((await supabase.auth.signOut()).error).toBeNull();
    expect((await supabase.auth.getSession()).data.session).toBeNull();
    // The signed-out session's refresh token is dead.
    const again = await client().auth.refreshSession({ refresh_token: first.refresh_token });
    expect(again.error?.code).toMatch(/refresh_token_(already_used|not_found)|session_not_found/);
  });

  it("answers a wrong password with invalid_credentials", async () => {
    const { error } = await client().auth.signInWithPassword({
      email: uniqueEmail("nobody"),
      password: PASSWORD,
    });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe("invalid_credentials");
  });

  it("inserts a newsletter sign-up, and tells a duplicate by 23505", async () => {
    const email = uniqueEmail("news");
    const supabase = client();
    expect((await supabase.from("newsletter_subscribers").insert({ email })).status).toBe(201);
    const duplicate = await supabase.from("newsletter_subscribers").insert({ email });
    expect(duplicate.status).toBe(409);
    expect(duplicate.error?.code).toBe("23505");
  });

  it("invokes a lead function with a solved captcha and reads its answer", async () => {
    const { data, error } = await client().functions.invoke("contact-notification", {
      body: {
        name: "Grace Hopper",
        email: uniqueEmail("contact"),
        phone: "+1 206 555 0100",
        message: "Does Revwise work with Dynamics?",
        captcha: await solvedPayload(server.url),
      },
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ ok: true });
  });
});
