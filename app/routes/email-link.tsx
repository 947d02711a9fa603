import { EmailLinkConfirm } from "../components/account/email-link-confirm.tsx";
import { emailLinkPage } from "../content/email-link.ts";
import { pages } from "../content/pages.ts";
import { NoScriptNotice } from "../components/ui/noscript-notice.tsx";
import { Island } from "../islands/island.tsx";
import { pageMeta } from "../lib/meta.ts";
import { AuthFrame } from "../sections/pages/auth-frame.tsx";

export const meta = () => pageMeta(pages.emailLink);

/** The page an account email's link opens: it uses the link only when its button is pressed. */
export default function Page() {
  return (
    <AuthFrame title={emailLinkPage.title} subtitle={emailLinkPage.subtitle}>
      <NoScriptNotice className="mb-6">{emailLinkPage.noScript}</NoScriptNotice>
      <Island name="email-link" component={EmailLinkConfirm} props={{}} hydrate="load" />
    </AuthFrame>
  );
}
