// The product tour (/product/tour): one deal followed from the call to the next meeting, told with
// the product's own screens. It is where "Watch Demo" and the demo email lead.
import meetingCapture from "../assets/features/meeting-capture.svg";
import talkingPoints from "../assets/features/talking-points.svg";
import autopilotSalesforce from "../assets/autopilot/autopilot-salesforce.svg";
import listenWise3 from "../assets/product/listen-wise-3.svg";
import businessWise1 from "../assets/product/business-wise-1.svg";
import type { ImageRef } from "./types.ts";

export type TourStep = {
  /** Anchor of the step in the page without JavaScript (#step-<id>). */
  id: string;
  title: string;
  summary: string;
  points: string[];
  image: ImageRef;
};

export const tourIntro: { eyebrow: string; title: string; lead: string } = {
  eyebrow: "Product tour",
  title: "Follow one deal from the call to the next meeting",
  lead: "Sam Patel sells analytics software. Here is what Revwise does with one of his calls, screen by screen: five steps, about three minutes to read.",
};

export const tourSteps: TourStep[] = [
  {
    id: "captured",
    title: "The meeting is captured",
    summary:
      "Sam's pricing review with Tidewater Analytics is on his calendar, so Revwise joins the Zoom call on its own. Everyone is told the call is recorded, and the transcript follows the conversation as it happens.",
    points: [
      "Joins Zoom, Microsoft Teams and Google Meet calls from the calendar",
      "Recording with consent, announced to every participant",
      "Commitments spotted while people talk: here, the 3-year quote due Friday",
    ],
    image: {
      src: meetingCapture,
      width: 640,
      height: 440,
      alt: "A Zoom pricing review with Tidewater Analytics: Grace Liu, Tom Alvarez and Sam Patel on the call, a live transcript, a Recording with consent badge and the action item to send the 3-year quote by Friday",
    },
  },
  {
    id: "proposed",
    title: "CRM fields are proposed",
    summary:
      "When the call ends, Revwise compares what was said with the Salesforce opportunity and proposes the changes: stage, amount, close date, next step, decision maker and champion, each shown before and after.",
    points: [
      "Every proposal links to the moment in the call it came from",
      "Empty fields are filled, outdated ones corrected",
      "Works the same with HubSpot and Microsoft Dynamics",
    ],
    image: {
      src: listenWise3,
      width: 779,
      height: 484,
      alt: "Review CRM updates for the Tidewater Analytics platform renewal in Salesforce: six fields with their value before and after the pricing review call, and an Approve all button",
    },
  },
  {
    id: "approved",
    title: "Sam approves, Salesforce is updated",
    summary:
      "Sam reads the six changes and approves them in one click. Revwise writes them to Salesforce and logs each one, so the record is right before his next meeting starts.",
    points: [
      "Nothing reaches your CRM without a person's approval",
      "Each write is logged with who approved it, and can be undone",
      "Zero fields typed by hand",
    ],
    image: {
      src: autopilotSalesforce,
      width: 640,
      height: 400,
      alt: "The Tidewater Analytics opportunity in Salesforce after approval: stage Negotiation, close date Jun 28, next step and decision maker filled in, six of eight fields updated by Revwise and none typed by hand",
    },
  },
  {
    id: "summary",
    title: "The deal summary writes itself",
    summary:
      "Business Wise rewrites the deal summary from every conversation on the opportunity: where it stands, who decides, what is still open and how the buyer's sentiment is trending.",
    points: [
      "Stakeholders with their role in the decision",
      "Risks called out, like the open legal review",
      "Sentiment across the last six meetings",
    ],
    image: {
      src: businessWise1,
      width: 779,
      height: 484,
      alt: "The deal summary for the Tidewater Analytics platform renewal: an AI summary, amount, close date Jun 28, a 3-year term, the next step for Grace Liu, three stakeholders and a positive sentiment trend",
    },
  },
  {
    id: "talking-points",
    title: "Talking points for the next call",
    summary:
      "Before the follow-up pricing review, Sam finds his talking points ready: the questions the buyer raised, the last open item before signature and the expansion Tom Alvarez hinted at.",
    points: [
      "Built from calls, emails and CRM history",
      "Tagged by topic: pricing, legal, expansion, ROI",
      "Waiting in the calendar event before the meeting starts",
    ],
    image: {
      src: talkingPoints,
      width: 640,
      height: 440,
      alt: "Talking points for the next Tidewater Analytics pricing review: confirm the 3-year term and 8% discount, share the updated DPA draft, ask about the Forecasting module and recap 18 hours saved per week",
    },
  },
];
