import { pages } from "../content/pages.ts";
import { signInPage } from "../content/sign-in.ts";
import { ProviderButtons } from "../components/account/provider-buttons.tsx";
import { SignInPanel } from "../components/account/sign-in-panel.tsx";
import { NoScriptNotice } from "../components/ui/noscript-notice.tsx";
import { Island } from "../islands/island.tsx";
import { pageMeta } from "../lib/meta.ts";
import { AuthFrame } from "../sections/pages/auth-frame.tsx";

export const meta = () => pageMeta(pages.auth);

const footerLink = "font-semibold text-primary underline-offset-4 hover:underline";

export default function Page() {
  const { terms } = signInPage;
  return (
    <AuthFrame
      title={signInPage.title}
      subtitle={signInPage.subtitle}
      signedIn={signInPage.signedIn}
      footer={
        <p>
          {terms.before}{" "}
          <a href={pages.terms.path} className={footerLink}>
            {terms.termsLink}
          </a>{" "}
          {terms.and}{" "}
          <a href={pages.privacy.path} className={footerLink}>
            {terms.privacyLink}
          </a>
          .
        </p>
      }
    >
      <NoScriptNotice className="mb-6">{signInPage.noScript}</NoScriptNotice>
      <div className="in-data-[account=signed-in]:hidden">
        <ProviderButtons />
      </div>
      {/* Wakes at load for someone signed in (or arriving with a sign-in link), at first use otherwise. */}
      <Island name="sign-in" component={SignInPanel} props={{}} hydrate="session" />
    </AuthFrame>
  );
}
