import { TeamWorkspace } from "../components/team/team-workspace.tsx";
import { pages } from "../content/pages.ts";
import { Island } from "../islands/island.tsx";
import { pageMeta } from "../lib/meta.ts";
import { AccountFrame } from "../sections/pages/account-frame.tsx";

// Prerendered as a shell without personal data: the island checks who is signed in and reads the
// workspace in the browser, with the member's session (the server checks the role and aal2).
export const meta = () => pageMeta(pages.team);

export default function Page() {
  return (
    <AccountFrame
      wide
      title="Team workspace"
      lead="Leads, emails, newsletter subscribers, webhooks and page analytics, for the Revwise team."
    >
      <noscript>
        <p className="rounded-xl border border-border bg-white p-5 text-slate-700">
          The team workspace needs JavaScript: turn it on to sign in and see it.
        </p>
      </noscript>
      <Island name="team-workspace" component={TeamWorkspace} props={{}} hydrate="load" />
    </AccountFrame>
  );
}
