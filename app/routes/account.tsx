import { AccountPage } from "../components/account/account-page.tsx";
import { pages } from "../content/pages.ts";
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
      <noscript>
        <p className="rounded-xl border border-border bg-white p-5 text-slate-700">
          Your account page needs JavaScript: turn it on to see and change your account.
        </p>
      </noscript>
      <Island name="account-page" component={AccountPage} props={{}} hydrate="load" />
    </AccountFrame>
  );
}
