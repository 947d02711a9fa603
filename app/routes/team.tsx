import { TeamWorkspace } from "../components/team/team-workspace.tsx";
import { pages } from "../content/pages.ts";
import { NoScriptNotice } from "../components/ui/noscript-notice.tsx";
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
      <NoScriptNotice>
        The team workspace needs JavaScript: turn it on to sign in and see it.
      </NoScriptNotice>
      <Island name="team-workspace" component={TeamWorkspace} props={{}} hydrate="load" />
    </AccountFrame>
  );
}
