// POST /verify with an emailed code, and the PKCE flow of an emailed link (GET /verify, then
// POST /token?grant_type=pkce).
import { expect, it } from "vitest";
import { uniqueIp } from "../../../tests/support/api-server.ts";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { codeIn, followLink, linkIn, PASSWORD, uniqueEmail } from "../../../tests/support/auth.ts";

describeAuthSuite("auth: verify", ({ server, client, auth, emailTo }) => {
  it("confirms by the emailed code too (POST /verify), and signs the user in", async () => {
    const email = uniqueEmail("code");
    const supabase = client();
    await supabase.auth.signUp({ email, password: PASSWORD });
    const code = codeIn(await emailTo(email, "Confirm your Revwise account"));
    expect(
      (
        await supabase.auth.verifyOtp({
          email,
          token: "000000" === code ? "111111" : "000000",
          type: "signup",
        })
      ).error,
    ).toMatchObject({ status: 403, code: "otp_expired" });
    const { data, error } = await supabase.auth.verifyOtp({ email, token: code, type: "signup" });
    expect(error).toBeNull();
    expect(data.session?.user.email_confirmed_at).toBeTruthy();
    expect((await supabase.auth.getUser()).data.user?.email).toBe(email);
  });

  it("runs the PKCE flow: the link yields a code that only the verifier can exchange", async () => {
    const email = uniqueEmail("pkce");
    const supabase = server.client({ ip: uniqueIp(), pkce: true });
    await supabase.auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: `${server.url}/` },
    });
    const link = linkIn(await emailTo(email, "Confirm your Revwise account"));
    expect(new URL(link).searchParams.get("token")).toMatch(/^pkce_/);
    const { location } = await followLink(link);
    const code = location.searchParams.get("code")!;
    expect(code).toMatch(/^[0-9a-f-]{36}$/);
    const wrong = await auth("/token?grant_type=pkce", {
      method: "POST",
      body: JSON.stringify({ auth_code: code, code_verifier: "x".repeat(56) }),
    });
    expect((await wrong.json()).code).toBe("bad_code_verifier");
    // The failed attempt consumed the code, as in GoTrue: a new link is needed.
    await supabase.auth.resend({ type: "signup", email });
    const second = await followLink(linkIn(await emailTo(email, "Confirm your Revwise account")));
    expect(second.fragment.get("error_code")).toBe("otp_expired"); // the email was confirmed by the first link
    const signedIn = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();

    const other = uniqueEmail("pkce2");
    await supabase.auth.signOut();
    await supabase.auth.signUp({ email: other, password: PASSWORD });
    const otherCode = (
      await followLink(linkIn(await emailTo(other, "Confirm your Revwise account")))
    ).location.searchParams.get("code")!;
    const exchanged = await supabase.auth.exchangeCodeForSession(otherCode);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(other);
  });
});
