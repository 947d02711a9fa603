// Where an account email's link leads: every email for the site opens the site's page for it
// (EMAIL_LINK_PAGE), which uses nothing until its reader presses its button; the page's token
// hash does through supabase-js's verifyOtp what the link does, in the site's PKCE flow too. A
// link to somewhere else (a native app on loopback, outside production) is GoTrue's /verify link.
import type { ParsedMail } from "mailparser";
import { expect, it } from "vitest";
import { EMAIL_LINK_PAGE } from "../../../common/accounts.ts";
import { uniqueIp } from "../../../tests/support/api-server.ts";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { PASSWORD, pageLinkIn, uniqueEmail } from "../../../tests/support/auth.ts";

describeAuthSuite("auth: email links", ({ server, emailTo, confirmedUser, emailChangeMails }) => {
  /** The email's one link: the site's page, its token hash, type and where it goes on. */
  function pageLink(mail: ParsedMail, type: string, redirectTo = `${server.url}/`) {
    const url = new URL(pageLinkIn(mail));
    expect(url.origin + url.pathname).toBe(`${server.url}${EMAIL_LINK_PAGE}`);
    expect(url.searchParams.get("type")).toBe(type);
    expect(url.searchParams.get("redirect_to")).toBe(redirectTo);
    // Nothing in the email uses the token when opened: no /verify link in the text or the HTML.
    expect(mail.text).not.toContain("/auth/v1/verify");
    expect(String(mail.html)).not.toContain("/auth/v1/verify");
    return url.searchParams.get("token_hash")!;
  }

  it("a sign-up's link opens the page; its token hash confirms through verifyOtp in the PKCE flow", async () => {
    const email = uniqueEmail("page-signup");
    const site = server.client({ ip: uniqueIp(), pkce: true });
    const { data } = await site.auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: `${server.url}/` },
    });
    expect(data.session).toBeNull();
    const tokenHash = pageLink(await emailTo(email, "Confirm your Revwise account"), "signup");
    expect(tokenHash).toMatch(/^pkce_[0-9a-f]{56}$/);
    // Read on another device: the token hash is the proof, as in GoTrue's POST /verify.
    const reader = server.client({ ip: uniqueIp(), pkce: true });
    const verified = await reader.auth.verifyOtp({ token_hash: tokenHash, type: "signup" });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email_confirmed_at).toBeTruthy();
    const again = await reader.auth.verifyOtp({ token_hash: tokenHash, type: "signup" });
    expect(again.error).toMatchObject({ status: 403, code: "otp_expired" });
  });

  it("sign-in links, recovery, both links of an email change and an invitation open the page and work there", async () => {
    const { email } = await confirmedUser("page-links");
    const site = server.client({ ip: uniqueIp(), pkce: true });

    await site.auth.signInWithOtp({
      email,
      options: { shouldCreateUser: false, emailRedirectTo: `${server.url}/auth` },
    });
    const magic = pageLink(
      await emailTo(email, "Your Revwise sign-in link"),
      "magiclink",
      `${server.url}/auth`,
    );
    const signedIn = await site.auth.verifyOtp({ token_hash: magic, type: "magiclink" });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.session?.user.email).toBe(email);

    const next = uniqueEmail("page-changed");
    const changed = await site.auth.updateUser(
      { email: next },
      { emailRedirectTo: `${server.url}/account` },
    );
    expect(changed.error).toBeNull();
    const { toNew, toCurrent } = await emailChangeMails(email, next);
    const first = await site.auth.verifyOtp({
      token_hash: pageLink(toNew, "email_change", `${server.url}/account`),
      type: "email_change",
    });
    expect(first.error).toBeNull();
    expect(first.data.session).toBeNull(); // the other address's link is still owed
    const second = await site.auth.verifyOtp({
      token_hash: pageLink(toCurrent, "email_change", `${server.url}/account`),
      type: "email_change",
    });
    expect(second.error).toBeNull();
    expect(second.data.user?.email).toBe(next);

    // Another account: a sign-in link and a recovery share their once-a-minute limit.
    const { email: lost } = await confirmedUser("page-recovery");
    await site.auth.resetPasswordForEmail(lost, {
      redirectTo: `${server.url}/auth/reset-password`,
    });
    const recovery = pageLink(
      await emailTo(lost, "Reset your Revwise password"),
      "recovery",
      `${server.url}/auth/reset-password`,
    );
    expect(
      (await site.auth.verifyOtp({ token_hash: recovery, type: "recovery" })).error,
    ).toBeNull();

    const invited = uniqueEmail("page-invited");
    const invite = await server.admin().auth.admin.inviteUserByEmail(invited);
    expect(invite.error).toBeNull();
    const inviteHash = pageLink(
      await emailTo(invited, "You are invited to Revwise"),
      "invite",
      server.url,
    );
    const accepted = await server
      .client({ ip: uniqueIp() })
      .auth.verifyOtp({ token_hash: inviteHash, type: "invite" });
    expect(accepted.data.session?.user.email).toBe(invited);
  });

  it("a link to somewhere else than the site (a native app on loopback) is GoTrue's /verify link", async () => {
    const email = uniqueEmail("page-native");
    const native = `http://127.0.0.1:${Number(new URL(server.url).port) + 1}/callback`;
    await server.client({ ip: uniqueIp() }).auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: native },
    });
    const url = new URL(pageLinkIn(await emailTo(email, "Confirm your Revwise account")));
    expect(url.origin + url.pathname).toBe(`${server.url}/auth/v1/verify`);
    expect(url.searchParams.get("redirect_to")).toBe(native);
  });
});
