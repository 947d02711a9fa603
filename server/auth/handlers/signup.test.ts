// POST /signup through the real supabase-js client, reading emails from a real SMTP server: sign-up
// → emailed link → session; answers that reveal no account; and with MAILER_AUTOCONFIRM, sign-up
// straight into a session.
import type { User } from "@supabase/supabase-js";
import { decodeJwt } from "jose";
import { expect, it } from "vitest";
import { uniqueIp } from "../../../tests/support/api-server.ts";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { followLink, linkIn, PASSWORD, uniqueEmail } from "../../../tests/support/auth.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { useTestServer } from "../../../tests/support/test-server.ts";

describeAuthSuite("auth: sign-up", ({ server, smtp, client, auth, confirmedUser, emailTo }) => {
  it("signs up, confirms by the emailed link, and signs in", async () => {
    const email = uniqueEmail("flow");
    const supabase = client();
    const { data, error } = await supabase.auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: `${server.url}/welcome`, data: { name: "Rachel" } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email,
      aud: "authenticated",
      role: "authenticated",
      user_metadata: { name: "Rachel" },
      identities: [expect.objectContaining({ provider: "email" })],
    });
    expect(data.user!.email_confirmed_at).toBeUndefined();
    expect(data.user!.confirmation_sent_at).toBeTruthy();

    // Not confirmed yet: the right password says so, a wrong one says nothing more.
    expect(
      (await supabase.auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toMatchObject({ status: 400, code: "email_not_confirmed" });
    expect(
      (await supabase.auth.signInWithPassword({ email, password: "Wrong-password-1" })).error,
    ).toMatchObject({ code: "invalid_credentials" });

    const mail = await emailTo(email, "Confirm your Revwise account");
    const link = new URL(linkIn(mail));
    expect(link.origin).toBe(server.url);
    expect(link.searchParams.get("type")).toBe("signup");
    const { status, location, fragment } = await followLink(link.toString());
    expect(status).toBe(303);
    expect(`${location.origin}${location.pathname}`).toBe(`${server.url}/welcome`);
    expect([...fragment.keys()]).toEqual([
      "access_token",
      "expires_at",
      "expires_in",
      "refresh_token",
      "sb",
      "token_type",
      "type",
    ]);
    expect(fragment.get("type")).toBe("signup");
    expect(Number(fragment.get("expires_at")) - Math.floor(Date.now() / 1000)).toBeGreaterThan(
      3500,
    );

    // The link works once.
    expect((await followLink(link.toString())).fragment.get("error_code")).toBe("otp_expired");

    const signedIn = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    const claims = decodeJwt(signedIn.data.session!.access_token);
    expect(claims).toMatchObject({
      iss: `${server.url}/auth/v1`,
      sub: signedIn.data.user!.id,
      aud: "authenticated",
      role: "authenticated",
      email,
      aal: "aal1",
      amr: [{ method: "password", timestamp: expect.any(Number) }],
      session_id: expect.any(String),
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: { name: "Rachel", email_verified: true },
      is_anonymous: false,
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(signedIn.data.session).toMatchObject({
      token_type: "bearer",
      expires_in: 3600,
      refresh_token: expect.any(String),
    });
  });

  it("reveals no account: sign-up, sign-in and recovery answer alike for known and unknown addresses", async () => {
    const { email } = await confirmedUser("known");
    const unknown = uniqueEmail("unknown");
    const before = smtp.messages.length;

    // Keys in an order jsonb does not keep: the stored user's metadata comes back reordered.
    const data = { zz: 1, é: { yy: 1, x: 2 }, b: 3, a: 4 };
    const signUp = (address: string, metadata: object) =>
      client().auth.signUp({
        email: address,
        password: "Another-Pass-11",
        options: { data: metadata },
      });
    const known = await signUp(email, data);
    const fresh = await signUp(unknown, data);
    const shape = (u: object | null) => Object.keys(u ?? {}).sort();
    expect(shape(known.data.user)).toEqual(shape(fresh.data.user));
    expect(JSON.stringify(known.data.user!.user_metadata)).toBe(
      JSON.stringify(fresh.data.user!.user_metadata),
    );
    expect(known.data.user!.identities).toHaveLength(1);
    expect(known.data.user!.id).not.toBe(fresh.data.user!.id);
    // A second sign-up for an address not yet confirmed tells nothing of the first either.
    const again = await signUp(unknown, { second: true });
    expect(shape(again.data.user)).toEqual(shape(fresh.data.user));
    expect(again.data.user!.id).not.toBe(fresh.data.user!.id);
    expect(again.data.user!.user_metadata).toEqual({ second: true });
    expect(Date.parse(again.data.user!.created_at)).toBeGreaterThanOrEqual(
      Date.parse(fresh.data.user!.created_at),
    );
    // Every time in the answer is one instant, and both ids were made in its millisecond: a
    // stored user's are, and so are a decoy's. Five of each, so a chance match proves nothing.
    const msOf = (uuid: string) => parseInt(uuid.replaceAll("-", "").slice(0, 12), 16);
    const instants = (user: User | null) => {
      const at = Date.parse(user!.created_at);
      const identity = user!.identities![0]!;
      return [
        msOf(user!.id),
        msOf(identity.identity_id!),
        Date.parse(user!.confirmation_sent_at!),
        Date.parse(user!.updated_at!),
        Date.parse(identity.created_at!),
      ].map((t) => t - at);
    };
    for (let i = 0; i < 5; i++) {
      const answers = [
        await signUp(uniqueEmail(`instant-${i}`), {}),
        await signUp(email, {}),
        await signUp(unknown, {}),
      ];
      for (const answer of answers) expect(instants(answer.data.user)).toEqual([0, 0, 0, 0, 0]);
    }
    // The owner hears about it; the requester cannot tell.
    await emailTo(email, "You already have a Revwise account");
    expect(
      (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toBeNull(); // password unchanged

    const wrongPassword = await auth("/token?grant_type=password", {
      method: "POST",
      body: JSON.stringify({ email, password: "Nope-nope-1" }),
    });
    const noAccount = await auth("/token?grant_type=password", {
      method: "POST",
      body: JSON.stringify({ email: uniqueEmail("ghost"), password: "Nope-nope-1" }),
    });
    expect(await wrongPassword.json()).toEqual(await noAccount.json());
    expect([wrongPassword.status, noAccount.status]).toEqual([400, 400]);

    expect(await client().auth.resetPasswordForEmail(uniqueEmail("ghost"))).toEqual({
      data: {},
      error: null,
    });
    expect(await client().auth.resend({ type: "signup", email: uniqueEmail("ghost") })).toEqual({
      data: { user: null, session: null },
      error: null,
    });
    expect(smtp.messages.length).toBeGreaterThan(before);
  });
});

describeEachDatabase("auth: sign-up with MAILER_AUTOCONFIRM=true", (ctx) => {
  const { server } = useTestServer(() => ctx.db, { env: { MAILER_AUTOCONFIRM: "true" } });

  it("signs up straight into a session with MAILER_AUTOCONFIRM=true, and then refuses a second sign-up", async () => {
    const email = uniqueEmail("auto");
    const { data, error } = await server
      .client({ ip: uniqueIp() })
      .auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.session?.user.email_confirmed_at).toBeTruthy();
    expect(
      (await server.client({ ip: uniqueIp() }).auth.signUp({ email, password: PASSWORD })).error,
    ).toMatchObject({ status: 422, code: "user_already_exists" });
    // Sign-ups racing for one new address: one account, the others told it exists.
    const racing = uniqueEmail("racing");
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () =>
        server.client({ ip: uniqueIp() }).auth.signUp({ email: racing, password: PASSWORD }),
      ),
    );
    expect(outcomes.filter((o) => o.error === null)).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.error !== null))
      expect(o.error).toMatchObject({ status: 422, code: "user_already_exists" });
  });
});
