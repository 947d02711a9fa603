// The security notices through supabase-js and a real SMTP server: each change to how an account
// is signed in to (email, phone, a second factor added or removed, a way to sign in unlinked,
// recovery codes made or used) sends its owner one email, with a way to secure the account; a
// change refused sends none.
import { afterAll, expect, it } from "vitest";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { followLink, linkIn, uniqueEmail, uniquePhone } from "../../../tests/support/auth.ts";
import { startSmsHook } from "../../../tests/support/sms-hook.ts";
import { addressOf } from "../../../tests/support/smtp.ts";
import { raiseToAal2 } from "../../../tests/support/team.ts";
import { stepAt, totpCode } from "../mfa/totp.ts";

const hook = await startSmsHook();
afterAll(() => hook.stop());

describeAuthSuite(
  "auth: security notices",
  ({ ctx, server, smtp, auth, confirmedUser, emailChangeMails, emailTo }) => {
    /** The notice arrived, once (in the outbox and at the SMTP server), with its way out. */
    async function toldOnce(to: string, subject: string) {
      const mail = await emailTo(to, subject);
      const queued = await ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM mail.outbox WHERE to_address = $1 AND subject = $2",
        [to, subject],
      );
      expect(queued).toEqual([{ n: 1 }]);
      expect(
        smtp.messages.filter((m) => addressOf(m) === to && m.subject === subject),
      ).toHaveLength(1);
      expect(mail.text).toContain(`Review my account: ${server.url}/account`);
      expect(mail.text).toContain(`reset your password at ${server.url}/auth`);
      return mail;
    }
    const subjectsTo = async (to: string) =>
      (
        await ctx.db.query<{ subject: string }>(
          "SELECT subject FROM mail.outbox WHERE to_address = $1 ORDER BY created_at, id",
          [to],
        )
      ).map((r) => r.subject);

    it("tells the address an account leaves that its email changed", async () => {
      const { email, supabase } = await confirmedUser("notice-email");
      const next = uniqueEmail("notice-email-next");
      expect((await supabase.auth.updateUser({ email: next })).error).toBeNull();
      const { toNew, toCurrent } = await emailChangeMails(email, next);
      await followLink(linkIn(toCurrent));
      // One link of two changes nothing yet: no notice.
      expect(await subjectsTo(email)).not.toContain("Your Revwise email address was changed");
      await followLink(linkIn(toNew));
      const mail = await toldOnce(email, "Your Revwise email address was changed");
      expect(mail.text).toContain(`now signs in with ${next} instead of this address`);
    });

    it("tells of a number added, changed and unlinked, showing its last digits only", async () => {
      const { email, supabase } = await confirmedUser("notice-phone");
      const first = uniquePhone();
      expect((await supabase.auth.updateUser({ phone: first })).error).toBeNull();
      const linked = await toldOnce(
        email,
        "A new way to sign in was added to your Revwise account",
      );
      expect(linked.text).toContain("A phone number can now be used to sign in");
      const second = uniquePhone();
      expect((await supabase.auth.updateUser({ phone: second })).error).toBeNull();
      const changed = await toldOnce(email, "Your Revwise phone number was changed");
      expect(changed.text).toContain(`ending in ${first.slice(-4)}`);
      expect(changed.text).toContain(`ending in ${second.slice(-4)}`);
      expect(changed.text).not.toContain(first);

      const { data } = await supabase.auth.getUserIdentities();
      const phoneIdentity = data!.identities.find((i) => i.provider === "phone")!;
      expect((await supabase.auth.unlinkIdentity(phoneIdentity)).error).toBeNull();
      await toldOnce(email, "A way to sign in was removed from your Revwise account");
    });

    it("tells of a second factor added and removed, and of recovery codes made and used", async () => {
      const { email, supabase, session } = await confirmedUser("notice-mfa");
      const factorId = await raiseToAal2(supabase);
      const added = await toldOnce(email, "A second factor was added to your Revwise account");
      expect(added.text).toContain("An authenticator app was added");

      const token = (await supabase.auth.getSession()).data.session!.access_token;
      const made = await auth("/recovery_codes", {
        method: "POST",
        body: "{}",
        headers: { authorization: `Bearer ${token}` },
      });
      const { codes } = (await made.json()) as { codes: string[] };
      await toldOnce(email, "New recovery codes for your Revwise account");
      const used = await auth("/recovery_codes/verify", {
        method: "POST",
        body: JSON.stringify({ code: codes[0] }),
        headers: { authorization: `Bearer ${session.access_token}` },
      });
      expect(used.status).toBe(200);
      const usedMail = await toldOnce(email, "A recovery code was used on your Revwise account");
      expect(usedMail.text).toContain("9 codes are left.");

      expect((await supabase.auth.mfa.unenroll({ factorId })).error).toBeNull();
      const removed = await toldOnce(
        email,
        "A second factor was removed from your Revwise account",
      );
      expect(removed.text).toContain("An authenticator app was removed");
    });

    it("tells nothing of a factor enrolled and never verified, nor of one removed unverified", async () => {
      const { email, supabase } = await confirmedUser("notice-unverified");
      const { data } = await supabase.auth.mfa.enroll({ factorType: "totp" });
      const factor = data as { id: string; totp: { secret: string } };
      const wrong = totpCode(factor.totp.secret, stepAt(Date.now()) + 20);
      expect(
        (await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code: wrong })).error,
      ).toMatchObject({ code: "mfa_verification_failed" });
      expect((await supabase.auth.mfa.unenroll({ factorId: factor.id })).error).toBeNull();
      // A notice is queued in the change's own transaction: once answered, it is there or never.
      expect((await subjectsTo(email)).filter((s) => s.includes("second factor"))).toEqual([]);
    });
  },
  {
    GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
    GOTRUE_SMS_AUTOCONFIRM: "true",
    GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: "true",
    ...hook.env,
  },
);
