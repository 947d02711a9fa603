// The Use cases page (/use-cases): how each
// role on a revenue team uses Revwise.
export type UseCase = {
  id: string;
  persona: string;
  title: string;
  summary: string;
  before: string[];
  withRevwise: string[];
  outcome: string;
};

export const useCasesIntro: { title: string; lead: string } = {
  title: "Built for every seat on the revenue team",
  lead: "Account executives, sales managers, sales leaders and revenue operations all depend on the same customer conversations. Here is how each of them uses Revwise to spend less time on admin and more on the deals that matter.",
};

export const useCases: UseCase[] = [
  {
    id: "account-executives",
    persona: "Account executives",
    title: "Sell more, type less",
    summary:
      "Revwise captures your calls, voice memos and notes and writes the CRM updates for you. You show up to each meeting prepared and leave with the follow-up already done.",
    before: [
      "Call notes retyped into the CRM at the end of the day, or the end of the week",
      "Twenty minutes of digging through emails before every meeting",
      "Promised follow-ups tracked on sticky notes and in your head",
      "Fielding Slack messages from your manager asking for deal updates",
    ],
    withRevwise: [
      "Next step, close date, amount and contacts proposed after each call, approved in one click",
      "Talking points and open questions ready before every meeting",
      "Commitments from both sides turned into tasks and reminders",
      "Your manager reads the deal summary instead of asking you for it",
    ],
    outcome:
      "Typically, the time after a call spent on CRM updates drops from a quarter of an hour to a couple of minutes of review, time that goes back to prospecting and customers.",
  },
  {
    id: "sales-managers",
    persona: "Sales managers",
    title: "Coach the deals that need it",
    summary:
      "Revwise gives you an up-to-date view of your team's pipeline, with risks and coaching moments flagged from real conversations, so one-on-ones and deal reviews focus on what to do next.",
    before: [
      "Pipeline meetings spent collecting status updates",
      "Risks discovered when a deal slips at the end of the month",
      "Coaching based on the few calls you had time to listen to",
      "Inconsistent qualification from rep to rep",
    ],
    withRevwise: [
      "Deal summaries and sentiment trends for every opportunity, updated after each meeting",
      "Stalled deals, missing next steps and silent champions flagged automatically",
      "Coaching flags point you to the exact moment in a call worth reviewing",
      "Qualification checklists filled in the same way for the whole team",
    ],
    outcome:
      "Deal reviews become coaching sessions: the facts are on screen before the meeting starts, and the conversation is about how to win.",
  },
  {
    id: "sales-leaders",
    persona: "Sales leaders",
    title: "A forecast you can defend",
    summary:
      "Revwise rolls up commit and best case across teams and shows the evidence behind each number, from buyer sentiment to the quality of each next step.",
    before: [
      "Forecasts built from rep judgment and stale CRM fields",
      "Surprises in the last week of the quarter",
      "No clear view of why deals are won or lost",
      "Customer knowledge leaves when sellers change roles",
    ],
    withRevwise: [
      "Commit and best case roll-ups with the risks behind them spelled out",
      "Early warnings when deal momentum or sentiment drops",
      "Win and loss patterns drawn from what buyers actually said",
      "A full conversation history that stays with every account",
    ],
    outcome:
      "You walk into the board meeting knowing which deals will land, which are at risk and what the team is doing about it.",
  },
  {
    id: "revenue-operations",
    persona: "Revenue operations",
    title: "Clean CRM data without the nagging",
    summary:
      "Revwise fills in the fields your reports depend on, maps to your existing Salesforce, HubSpot or Dynamics setup and keeps an audit trail of every change it writes.",
    before: [
      "Weekly reminder emails about CRM hygiene",
      "Required fields filled with placeholder values to move a stage",
      "Dashboards nobody trusts because the data is incomplete",
      "Custom fields that only a few reps ever use",
    ],
    withRevwise: [
      "Fields populated from conversations, mapped to your standard and custom fields",
      "Every update reviewed by the seller and logged with its source",
      "Reports and dashboards built on complete, current data",
      "Permissions that follow your CRM's own sharing rules",
    ],
    outcome:
      "Your CRM becomes a reliable system of record, and your team spends its time improving the process instead of policing it.",
  },
];
