// Copy of the home page: hero, marquee banner, pains, feature carousel,
// "Customer Relationship Memory", CRM autopilot carousel and the closing call to action.
import heroDashboard from "../assets/hero/hero-dashboard.svg";
import meetingCapture from "../assets/features/meeting-capture.svg";
import crmSync from "../assets/features/crm-sync.svg";
import dealSummary from "../assets/features/deal-summary.svg";
import talkingPoints from "../assets/features/talking-points.svg";
import dealSentiment from "../assets/features/deal-sentiment.svg";
import autopilotSalesforce from "../assets/autopilot/autopilot-salesforce.svg";
import autopilotHubspot from "../assets/autopilot/autopilot-hubspot.svg";
import autopilotDynamics from "../assets/autopilot/autopilot-dynamics.svg";
import type { FeatureItem, ImageRef, Pain, Point } from "./types.ts";

export const hero: { eyebrow: string; title: string; lead: string; image: ImageRef } = {
  eyebrow: "The AI sales assistant for revenue teams",
  title: "Less CRM admin. Full deal visibility.",
  lead: "Revwise listens to your Zoom, Teams and Google Meet calls, your voice memos and your notes, then updates Salesforce, HubSpot or Dynamics for you. Sellers get their evenings back; managers see where every deal really stands.",
  image: {
    src: heroDashboard,
    alt: "The Revwise dashboard: a captured customer call beside the CRM fields it updated, a deal summary and a sentiment trend for the opportunity",
    width: 1200,
    height: 760,
  },
};

/** Short phrases for the animated marquee: things Revwise does on its own. */
export const bannerPhrases: string[] = [
  "Zoom call captured",
  "Salesforce opportunity updated",
  "Next step logged",
  "Close date moved to Jun 28",
  "Voice memo transcribed",
  "HubSpot deal stage advanced",
  "New stakeholder added",
  "MEDDICC checklist refreshed",
  "Follow-up email drafted",
  "Deal risk flagged for review",
];

export const painsSection: { title: "Sell like it's 2025"; lead: string } = {
  title: "Sell like it's 2025",
  lead: "Sellers still lose hours every week to typing, chasing and re-telling what customers already said. Revwise takes the busywork off their plate so the time goes back to selling.",
};

export const pains: Pain[] = [
  {
    title: "Manual CRM Entry",
    icon: "keyboard",
    description:
      "After every call, someone has to retype next steps, amounts and close dates into the CRM, and it usually waits until Friday night. Revwise fills those fields from the conversation itself and asks you to approve the changes in one click.",
  },
  {
    title: "Deal Updates",
    icon: "refresh",
    description:
      "Managers chase reps on Slack for the latest on a deal, and the answer is already out of date by the pipeline meeting. Revwise keeps every opportunity current after each meeting, memo or note, so the update is there before anyone asks.",
  },
  {
    title: "Manual Deal Reviews",
    icon: "clipboard",
    description:
      "Deal reviews turn into status readouts because nobody has time to read call notes across a dozen opportunities. Revwise prepares a summary, a qualification checklist and a sentiment trend for each deal, so the review can focus on what to do next.",
  },
  {
    title: "Lost Customer Intelligence",
    icon: "brain",
    description:
      "Objections, competitors and promises made on calls live in someone's notebook and leave with them when territories change. Revwise keeps a searchable history of every conversation, so whoever owns the account inherits everything the customer has said.",
  },
];

export const featuresSection: { title: "Put your best foot forward"; lead: string; hint: string } =
  {
    title: "Put your best foot forward",
    lead: "Walk into every meeting prepared and walk out with the follow-up already done.",
    /** Shown where the features can be picked (with JavaScript). */
    hint: "Pick a feature to see it at work.",
  };

export const features: FeatureItem[] = [
  {
    title: "Meeting capture",
    description:
      "Revwise joins your scheduled Zoom, Microsoft Teams and Google Meet calls, records with consent and writes a clean transcript. On the road, a two-minute voice memo or a quick note works just as well.",
    image: {
      src: meetingCapture,
      alt: "A live Zoom call with the Revwise recorder running and a transcript appearing line by line",
      width: 640,
      height: 440,
    },
  },
  {
    title: "Automatic CRM updates",
    description:
      "Next step, close date, amount, stage, competitors and new contacts are pulled from the conversation and mapped to your Salesforce, HubSpot or Dynamics fields. You review the changes and approve them, and nothing is overwritten without a trace.",
    image: {
      src: crmSync,
      alt: "Proposed CRM field changes for an opportunity, each showing the old value, the new value and an approve button",
      width: 640,
      height: 440,
    },
  },
  {
    title: "Deal summaries",
    description:
      "Every opportunity gets a living summary: where it stands, who is involved, what was agreed and what is still open. Each line links back to the moment in the call it came from.",
    image: {
      src: dealSummary,
      alt: "A deal summary card listing the current stage, key stakeholders, agreed next steps and open questions",
      width: 640,
      height: 440,
    },
  },
  {
    title: "Talking points",
    description:
      "Before each meeting, Revwise suggests what to cover based on the last conversation: open objections, promised follow-ups and the gaps in your qualification. You show up knowing exactly what to ask.",
    image: {
      src: talkingPoints,
      alt: "A pre-meeting brief with three suggested talking points and the open questions from the previous call",
      width: 640,
      height: 440,
    },
  },
  {
    title: "Deal sentiment",
    description:
      "Revwise reads the tone of each meeting and tracks how buyer engagement changes over time. A champion going quiet or a new blocker showing up is flagged before it becomes a lost deal.",
    image: {
      src: dealSentiment,
      alt: "A line chart of buyer sentiment across recent meetings, with a drop highlighted as a risk",
      width: 640,
      height: 440,
    },
  },
];

export const memorySection: {
  before: "Customer Relationship Management";
  after: "Customer Relationship Memory";
  lead: string;
  points: Point[];
} = {
  before: "Customer Relationship Management",
  after: "Customer Relationship Memory",
  lead: "A CRM only knows what someone remembered to type into it. Revwise remembers what actually happened, so your whole team can pick up any account where the last conversation left off.",
  points: [
    {
      title: "Every conversation",
      description:
        "Calls, voice memos and notes are captured, transcribed and linked to the right account and opportunity. Ask what the customer said about pricing in March and get the answer with the source.",
    },
    {
      title: "Every commitment",
      description:
        "Promises made on both sides, such as a security review by Friday or a revised quote next week, become tracked follow-ups. Nothing you agreed to slips through the cracks between meetings.",
    },
    {
      title: "Every stakeholder",
      description:
        "New names from a call are added as contacts with their role in the deal: champion, economic buyer, technical evaluator. You see the buying committee grow, and who has gone silent.",
    },
  ],
};

export const autopilotSection: { title: "Your CRM on Autopilot"; lead: string } = {
  title: "Your CRM on Autopilot",
  lead: "Revwise writes to the CRM you already use, in the fields your team already reports on. Connect it once and every meeting keeps your pipeline current.",
};

export const autopilotSlides: FeatureItem[] = [
  {
    title: "Salesforce",
    description:
      "Opportunity stage, next step, close date, amount and custom fields are updated after every call, and new contacts are created on the account with their role. Each change is logged with a link to the moment in the conversation it came from.",
    image: {
      src: autopilotSalesforce,
      alt: "A Salesforce opportunity record with fields updated by Revwise highlighted after a customer call",
      width: 640,
      height: 400,
    },
  },
  {
    title: "HubSpot",
    description:
      "Deal properties, pipeline stage and associated contacts stay in sync, and a meeting summary is logged on the deal timeline. Your HubSpot reports finally reflect what was said on the call.",
    image: {
      src: autopilotHubspot,
      alt: "A HubSpot deal record showing an updated deal stage and a Revwise meeting summary on the timeline",
      width: 640,
      height: 400,
    },
  },
  {
    title: "Microsoft Dynamics",
    description:
      "Opportunity fields, estimated revenue and close dates in Dynamics 365 Sales are updated from your Teams and Zoom meetings. Activities and notes are attached to the right record, without copy and paste.",
    image: {
      src: autopilotDynamics,
      alt: "A Microsoft Dynamics 365 opportunity with an updated estimated close date and a meeting note added by Revwise",
      width: 640,
      height: 400,
    },
  },
];

export const closingCta: { title: string; lead: string } = {
  title: "Get to revenue better and faster",
  lead: "See Revwise on your own sales process: connect a calendar and a CRM, capture your next call and watch the opportunity update itself. Setup takes an afternoon, not a quarter.",
};
