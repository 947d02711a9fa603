// The About Us page: intro, vision, mission and values. The team and the
// advisors are in people.ts.
import type { Point } from "./types.ts";

export const companyIntro: { title: string; lead: string; story: string[] } = {
  title: "We build for the people who carry the number",
  lead: "Revwise is a Seattle company making AI that does the sales admin, so sellers can spend their time with customers and leaders can trust their pipeline.",
  story: [
    "Revwise started with a familiar Sunday evening: our founder, Daniel Okafor, catching up on a week of Salesforce updates before Monday's pipeline call. After twelve years in sales, from SDR to regional VP, he had watched the same pattern at every company. The best conversations happened on calls, and almost none of them made it into the CRM intact.",
    "So we built an assistant that listens the way a great sales partner would. Revwise captures meetings, voice memos and notes, writes the CRM updates for the seller to approve, and keeps a memory of every account that the whole team can use. Our engineers came from real-time transcription and CRM integration work, and they hold one rule above all others: nothing Revwise writes to your CRM is ever lost, duplicated or untraceable.",
    "Today account executives, sales managers and sales leaders at more than 10,000 companies use Revwise to get to revenue better and faster. However many teams we serve, we still sit in on customer calls every week, because the best ideas for Revwise come from the people who use it.",
  ],
};

export const vision: { title: "Vision"; text: string } = {
  title: "Vision",
  text: "A world where no seller ever types up a call again, and every decision about a deal is based on what the customer actually said.",
};

export const mission: { title: "Mission"; text: string } = {
  title: "Mission",
  text: "We give sales teams an AI assistant that captures every conversation, keeps the CRM accurate without manual entry and turns what buyers say into clear next steps, for the seller, the manager and the leader.",
};

export const values: Point[] = [
  {
    title: "Sellers first",
    description:
      "We design for the person with the quota. If a feature adds a click to a seller's day without saving two, we don't ship it.",
  },
  {
    title: "Traceable by default",
    description:
      "Every summary, field update and answer links back to the moment in the conversation it came from. Trust is earned one source at a time.",
  },
  {
    title: "Your data stays yours",
    description:
      "Recordings happen with consent, access follows your CRM permissions and customers decide how long their data is kept.",
  },
  {
    title: "Close to the field",
    description:
      "We sit in on sales calls, deal reviews and forecast meetings every week. What we build comes from what we hear there.",
  },
];
