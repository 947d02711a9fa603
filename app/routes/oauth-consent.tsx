import { OAuthConsent } from "../components/account/oauth-consent.tsx";
import { consentPage } from "../content/oauth-apps.ts";
import { pages } from "../content/pages.ts";
import { NoScriptNotice } from "../components/ui/noscript-notice.tsx";
import { Island } from "../islands/island.tsx";
import { pageMeta } from "../lib/meta.ts";
import { AccountFrame } from "../sections/pages/account-frame.tsx";

// Prerendered as a shell without personal data; the island reads the app's request in the browser.
export const meta = () => pageMeta(pages.oauthConsent);

export default function Page() {
  return (
    <AccountFrame title={consentPage.heading} lead={consentPage.lead}>
      <NoScriptNotice>{consentPage.noscript}</NoScriptNotice>
      <Island name="oauth-consent" component={OAuthConsent} props={{}} hydrate="load" />
    </AccountFrame>
  );
}
