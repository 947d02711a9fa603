// The account page's island. The page itself is a prerendered shell with no personal data: this
// reads the session in the browser, sends someone without one to the sign-in page (and someone
// whose sign-in still waits for the app's code there too), then shows the person's account.
import type { User } from "@supabase/supabase-js";
import type * as React from "react";
import { useEffect, useState } from "react";
import { EmailChangeForm } from "../../forms/email-change-form.tsx";
import { NameForm } from "../../forms/name-form.tsx";
import { PasswordChangeForm } from "../../forms/password-change-form.tsx";
import { currentUser, nameOf, needsSecondFactor, signInHref } from "../../lib/account.ts";
import { useSessionWatch } from "../../lib/session-watch.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { RegionCard } from "../ui/region-card.tsx";
import { accountDeletion, dataDownload } from "../../content/account-security.ts";
import { AccountDeletion } from "./account-deletion.tsx";
import { AllowedApps } from "./allowed-apps.tsx";
import { DataDownload } from "./data-download.tsx";
import { SessionList } from "./session-list.tsx";
import { SignInMethods } from "./sign-in-methods.tsx";
import { signInMethods } from "../../content/sign-in-methods.ts";
import { CheckingInPlaceOf, SignInPrompt } from "./sign-in-prompt.tsx";
import { SiteAndLogout } from "./site-and-logout.tsx";
import { PasskeysSettings } from "./passkeys-settings.tsx";
import { TwoFactorSettings } from "./two-factor-settings.tsx";

function AccountSignIn({ takeFocus = false }: { takeFocus?: boolean }) {
  return (
    <SignInPrompt title="Sign in to see your account" path="/account" takeFocus={takeFocus}>
      Your account page shows your name, email, password, two-step verification and the devices
      you're signed in on, once you have signed in.
    </SignInPrompt>
  );
}

/** The signed-in person; "code" while their sign-in still owes its second step. */
async function readAccount(): Promise<User | "code" | null> {
  const found = await currentUser();
  if (found && (await needsSecondFactor(await getSupabase()))) return "code";
  return found;
}

export function AccountPage() {
  const [user, setUser] = useState<User | null | "anonymous" | "signed-out">(null);

  const check = () =>
    void readAccount().then((found) => {
      // The second step of a sign-in is the sign-in page's, which comes back here after it.
      if (found === "code") return window.location.replace(signInHref("/account"));
      // Someone shown their account, now without a session, was signed out meanwhile.
      if (!found)
        return setUser((was) => (was && typeof was !== "string" ? "signed-out" : "anonymous"));
      setUser(found);
    });
  useEffect(check, []);
  // Signed out here or elsewhere while open: the sign-in prompt, the account's details dropped.
  useSessionWatch({
    active: user !== null && typeof user !== "string",
    signedOut: () => setUser("signed-out"),
    recheck: check,
  });

  if (user === "anonymous" || user === "signed-out")
    return <AccountSignIn takeFocus={user === "signed-out"} />;
  if (!user)
    return <CheckingInPlaceOf status="Loading your account..." prompt={<AccountSignIn />} />;

  const email = user.email ?? "";
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4 rounded-xl border border-indigo-100 bg-indigo-50 p-5">
        <p className="text-sm leading-6 text-slate-700">
          Signed in as <strong className="font-semibold break-all text-ink">{email}</strong>
        </p>
        <div className="flex flex-wrap gap-3">
          <SiteAndLogout />
        </div>
      </div>
      <RegionCard
        title="Profile"
        description="The name we greet you with, and the email you sign in with."
      >
        <NameForm name={nameOf(user)} />
        <div className="grid gap-4 border-t border-border pt-5">
          <p className="text-sm text-slate-700">
            Current email: <strong className="font-semibold break-all text-ink">{email}</strong>
          </p>
          <EmailChangeForm email={email} pendingEmail={user.new_email} onChanged={check} />
        </div>
      </RegionCard>
      <RegionCard title={signInMethods.title} description={signInMethods.description}>
        <SignInMethods identities={user.identities ?? []} onChanged={check} />
      </RegionCard>
      <RegionCard
        title="Password"
        description="Choose a new password: type your current one first. Without one, we email you a code to confirm it's you."
      >
        <PasswordChangeForm email={email} />
      </RegionCard>
      <PasskeysSettings />
      <RegionCard
        title="Two-step verification"
        description="Protect your account with a code from an authenticator app, or a security key, each time you sign in."
      >
        <TwoFactorSettings />
      </RegionCard>
      <RegionCard
        title="Where you're signed in"
        description="The browsers and devices signed in to your account. Sign out the ones you don't recognise."
      >
        <SessionList />
      </RegionCard>
      <AllowedApps />
      <RegionCard title={dataDownload.title} description={dataDownload.description}>
        <DataDownload />
      </RegionCard>
      <RegionCard title={accountDeletion.title} description={accountDeletion.description}>
        <AccountDeletion email={email} />
      </RegionCard>
    </div>
  );
}
