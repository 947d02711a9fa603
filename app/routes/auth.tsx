import { pages } from "../content/pages.ts";
import { SignInPanel } from "../components/account/sign-in-panel.tsx";
import { NoScriptNotice } from "../components/ui/noscript-notice.tsx";
import { Island } from "../islands/island.tsx";
import { pageMeta } from "../lib/meta.ts";
import { AuthFrame } from "../sections/pages/auth-frame.tsx";

export const meta = () => pageMeta(pages.auth);

const footerLink = "font-semibold text-primary underline-offset-4 hover:underline";

export default function Page() {
  return (
    <AuthFrame
      title="Sign in to your account"
      subtitle="Enter your credentials below"
      footer={
        <p>
          By signing in you agree to our{" "}
          <a href="/terms-of-service" className={footerLink}>
            Terms of Service
          </a>{" "}
          and{" "}
          <a href="/privacy-policy" className={footerLink}>
            Privacy Policy
          </a>
          .
        </p>
      }
    >
      <NoScriptNotice className="mb-6">
        Signing in needs JavaScript: turn it on to sign in, sign up, get a sign-in link or reset
        your password.
      </NoScriptNotice>
      {/* Wakes at load for someone signed in (or arriving with a sign-in link), at first use otherwise. */}
      <Island name="sign-in" component={SignInPanel} props={{}} hydrate="session" />
    </AuthFrame>
  );
}
