// POST /recover: the emailed link or code signs in for recovery, and a new password works.
import { decodeJwt } from "jose";
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { codeIn, followLink, linkIn, PASSWORD } from "../../../tests/support/auth.ts";

describeAuthSuite("auth: recover", ({ server, client, auth, confirmedUser, emailTo }) => {
  it("recovers an account: the emailed link signs in for recovery and a new password works", async () => {
    const { email } = await confirmedUser("recover");
    const supabase = client();
    expect(
      await supabase.auth.resetPasswordForEmail(email, {
        redirectTo: `${server.url}/auth/reset-password`,
      }),
    ).toEqual({ data: {}, error: null });
    const mail = await emailTo(email, "Reset your Revwise password");
    const { location, fragment } = await followLink(linkIn(mail));
    expect(location.pathname).toBe("/auth/reset-password");
    expect(fragment.get("type")).toBe("recovery");
    const recovering = client();
    await recovering.auth.setSession({
      access_token: fragment.get("access_token")!,
      refresh_token: fragment.get("refresh_token")!,
    });
    expect(decodeJwt(fragment.get("access_token")!).amr).toEqual([
      { method: "otp", timestamp: expect.any(Number) },
    ]);
    expect(
      (await recovering.auth.updateUser({ password: "Brand-New-Password-9" })).error,
    ).toBeNull();
    expect(
      (await client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code,
    ).toBe("invalid_credentials");
    expect(
      (await client().auth.signInWithPassword({ email, password: "Brand-New-Password-9" })).error,
    ).toBeNull();
  });

  it("signs in by the emailed code with the method otp, as every verified code does", async () => {
    const { email } = await confirmedUser("recover-code");
    await client().auth.resetPasswordForEmail(email);
    const { data, error } = await client().auth.verifyOtp({
      email,
      token: codeIn(await emailTo(email, "Reset your Revwise password")),
      type: "recovery",
    });
    expect(error).toBeNull();
    expect(decodeJwt(data.session!.access_token).amr).toEqual([
      { method: "otp", timestamp: expect.any(Number) },
    ]);
  });

  it("leads the link, without redirect_to, to the page the request came from when it is the site's", async () => {
    for (const [headers, path] of [
      [{ referer: `${server.url}/pricing` }, "/pricing"],
      [
        { redirect_to: `${server.url}/from-header`, referer: `${server.url}/pricing` },
        "/from-header",
      ],
      [{ referer: "https://elsewhere.example/page" }, "/"],
    ] as const) {
      const { email } = await confirmedUser("recover-referer");
      await auth("/recover", { method: "POST", body: JSON.stringify({ email }), headers });
      const { location } = await followLink(
        linkIn(await emailTo(email, "Reset your Revwise password")),
      );
      expect([headers, location.pathname]).toEqual([headers, path]);
    }
  });
});
