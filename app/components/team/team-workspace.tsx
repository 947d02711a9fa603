// The team workspace's island. The page is a prerendered shell with no personal data: this reads
// who is signed in, asks for what is missing (sign-in, the app's code, an app at all) or says the
// person is not on the team, and only then shows the sections, which read through /rest/v1.
import { useEffect, useState } from "react";
import type { TeamRole } from "../../../common/workspace.ts";
import {
  tabWithNewLeads,
  titleWithNewLeads,
  workspaceTabs,
  type WorkspaceTab,
} from "../../content/team.ts";
import { useNewLeadCount } from "../../lib/new-leads.ts";
import { useSessionWatch } from "../../lib/session-watch.ts";
import { teamGate, type TeamGate } from "../../lib/team.ts";
import { NO_LEAD_FILTERS } from "../../lib/team-data.ts";
import { SiteAndLogout } from "../account/site-and-logout.tsx";
import { Badge } from "../ui/badge.tsx";
import { AnalyticsPanel } from "./analytics-panel.tsx";
import { EmailsPanel } from "./emails-panel.tsx";
import { Inbox } from "./inbox.tsx";
import { NewsletterPanel } from "./newsletter-panel.tsx";
import { PeoplePanel } from "./people-panel.tsx";
import { SecurityPanel } from "./security-panel.tsx";
import { SubscribersPanel } from "./subscribers-panel.tsx";
import { TeamPanel } from "./team-panel.tsx";
import { CheckingInPlaceOf } from "../account/sign-in-prompt.tsx";
import { CodeStep, EnrolStep, NotOnTheTeam, TeamSignIn } from "./team-gate.tsx";
import { WebhooksPanel } from "./webhooks-panel.tsx";
import { useWorkspacePlace, WorkspaceTabs } from "./workspace-tabs.tsx";
import { Address } from "../ui/address.tsx";

export function TeamWorkspace() {
  const [gate, setGate] = useState<TeamGate | null>(null);
  /** Whether what shows replaced, in place, what showed before (it then takes the focus). */
  const [inPlace, setInPlace] = useState(false);
  const check = () => void teamGate().then(setGate);
  useEffect(check, []);
  const stepDone = () => {
    setInPlace(true);
    check();
  };
  // Signed out here or elsewhere while open: back to the sign-in prompt, the data dropped.
  useSessionWatch({
    active: gate !== null && gate.step !== "anonymous",
    signedOut: () => {
      setInPlace(true);
      setGate({ step: "anonymous" });
    },
    // A refusal with the session still good (nothing changed) leaves the focus where it is.
    recheck: () =>
      void teamGate().then((next) => {
        if (next.step !== "ready") setInPlace(true);
        setGate(next);
      }),
  });

  if (!gate) return <CheckingInPlaceOf status="Checking your access..." prompt={<TeamSignIn />} />;
  switch (gate.step) {
    case "anonymous":
      return <TeamSignIn takeFocus={inPlace} />;
    case "outsider":
      return <NotOnTheTeam email={gate.email} />;
    case "code":
      return <CodeStep factorId={gate.factorId} securityKey={gate.securityKey} onDone={stepDone} />;
    case "enrol":
      return <EnrolStep onDone={stepDone} />;
    case "ready":
      return <Workspace email={gate.email} role={gate.role} me={gate.userId} takeFocus={inPlace} />;
  }
}

function Workspace({
  email,
  role,
  me,
  takeFocus,
}: {
  email: string;
  role: TeamRole;
  me: string;
  takeFocus: boolean;
}) {
  const [place, go] = useWorkspacePlace();
  // The leads still new: counted on the Inbox tab and in the page's title (the browser's tab).
  const fresh = useNewLeadCount();
  useEffect(() => {
    const title = document.title.replace(/^\([\d,]+\) /, "");
    document.title = titleWithNewLeads(title, fresh);
    return () => {
      document.title = title;
    };
  }, [fresh]);
  // A member sees no admin's tab; one named in the URL shows the inbox instead.
  const tabs = workspaceTabs
    .filter((t) => role === "admin" || !("adminOnly" in t))
    .map((t) => (t.id === "inbox" ? { ...t, label: tabWithNewLeads(t.label, fresh) } : t));
  const current = tabs.some((t) => t.id === place.tab) ? place.tab : "inbox";
  const panel = (tab: WorkspaceTab) => {
    switch (tab) {
      case "inbox":
        return (
          <Inbox
            me={me}
            lead={place.lead}
            filters={place.filters ?? NO_LEAD_FILTERS}
            onLead={(lead) => go({ tab: "inbox", lead, filters: place.filters })}
            onFilters={(filters) => go({ tab: "inbox", filters }, { replace: true })}
          />
        );
      case "people":
        return <PeoplePanel onLead={(lead) => go({ tab: "inbox", lead })} />;
      case "emails":
        return <EmailsPanel />;
      case "subscribers":
        return <SubscribersPanel />;
      case "newsletter":
        return <NewsletterPanel />;
      case "webhooks":
        return <WebhooksPanel admin={role === "admin"} />;
      case "analytics":
        return <AnalyticsPanel />;
      case "team":
        return <TeamPanel self={email} />;
      case "security":
        return <SecurityPanel />;
    }
  };
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4 rounded-xl border border-indigo-100 bg-indigo-50 p-4">
        <p className="flex flex-wrap items-center gap-2 text-sm leading-6 text-slate-700">
          Signed in as <Address>{email}</Address>
          <Badge variant={role === "admin" ? "accent" : "default"}>
            {role === "admin" ? "Admin" : "Member"}
          </Badge>
        </p>
        <div className="flex flex-wrap gap-3">
          <SiteAndLogout />
        </div>
      </div>
      <WorkspaceTabs
        tabs={tabs}
        current={current}
        onSelect={(tab) => go({ tab })}
        takeFocus={takeFocus}
      >
        {panel(current)}
      </WorkspaceTabs>
    </div>
  );
}
