import { AccountPage } from "../components/account/account-page.tsx";
import { pages } from "../content/pages.ts";
import { NoScriptNotice } from "../components/ui/noscript-notice.tsx";
import { Island } from "../islands/island.tsx";
import { pageMeta } from "../lib/meta.ts";
import { AccountFrame } from "../sections/pages/account-frame.tsx";

// Prerendered as a shell without personal data; the island loads the account in the browser.
export const meta = () => pageMeta(pages.account);

export default function Page() {
  return (
    <AccountFrame
      title="Your account"
      lead="Your name, email, password, two-step verification and the devices you're signed in on."
    >
      <NoScriptNotice>
        Your account page needs JavaScript: turn it on to see and change your account.
      </NoScriptNotice>
      <Island name="account-page" component={AccountPage} props={{}} hydrate="load" />
    </AccountFrame>
  );
}
