// Copy of the product pages: the three showcase products with their
// 779×484 carousels, the three "Sales Knowledge Chat" products, the product overview with its
// contacts mock-up, and the before/after block whose text depends on the path.
import businessWise1 from "../assets/product/business-wise-1.svg";
import businessWise2 from "../assets/product/business-wise-2.svg";
import businessWise3 from "../assets/product/business-wise-3.svg";
import listenWise1 from "../assets/product/listen-wise-1.svg";
import listenWise2 from "../assets/product/listen-wise-2.svg";
import listenWise3 from "../assets/product/listen-wise-3.svg";
import roleWise1 from "../assets/product/role-wise-1.svg";
import roleWise2 from "../assets/product/role-wise-2.svg";
import roleWise3 from "../assets/product/role-wise-3.svg";
import { pages } from "./pages.ts";
import type { AssistantProduct, BeforeAfter, ShowcaseProduct } from "./types.ts";

/** Every product carousel shows its slides at this one size. */
const slideSize = { width: 779, height: 484 };

export const showcaseProducts: ShowcaseProduct[] = [
  {
    page: pages.businessWise,
    name: "Business Wise",
    eyebrow: "Business Wise · Deal insight",
    title: "Know where every deal stands, and why",
    lead: "Business Wise turns every call, memo and note on an opportunity into a deal summary, a qualification checklist and a sentiment trend. You walk into deal reviews with the facts, not a guess.",
    slides: [
      {
        src: businessWise1,
        ...slideSize,
        alt: "Deal summary for Tidewater Analytics – Platform renewal, with stage, stakeholders, agreed next steps and open risks",
        caption:
          "A living deal summary for Tidewater Analytics – Platform renewal, written from every conversation on the opportunity.",
      },
      {
        src: businessWise2,
        ...slideSize,
        alt: "A MEDDICC qualification checklist with each criterion marked confirmed, partial or missing, and an overall confidence score",
        caption:
          "A MEDDICC checklist filled in from what the buyer actually said, with a confidence score that shows the gaps at a glance.",
      },
      {
        src: businessWise3,
        ...slideSize,
        alt: "Deal sentiment plotted across six meetings above a customer history timeline of calls, emails and milestones",
        caption:
          "Sentiment across the last six meetings, next to the full customer history, so a cooling deal is visible early.",
      },
    ],
    features: [
      {
        icon: "sparkles",
        title: "Deal summaries",
        description:
          "Where the deal stands, who is involved, what was agreed and what is still open, updated after every meeting. Each line links to the moment it came from.",
      },
      {
        icon: "clipboard",
        title: "Qualification checklists",
        description:
          "MEDDICC, BANT or your own framework, filled in from the conversation. Missing criteria become talking points for the next call.",
      },
      {
        icon: "chart",
        title: "Sentiment and history",
        description:
          "Follow how buyer engagement moves from meeting to meeting, and read the full account history before you pick up the phone.",
      },
    ],
  },
  {
    page: pages.listenWise,
    name: "Listen Wise",
    eyebrow: "Listen Wise · Capture",
    title: "Every conversation captured. Your CRM updated.",
    lead: "Listen Wise joins your Zoom, Microsoft Teams and Google Meet calls, transcribes your voice memos and reads your notes. Then it proposes the CRM updates for you to approve, so the record is right before your next meeting starts.",
    slides: [
      {
        src: listenWise1,
        ...slideSize,
        alt: "A live meeting capture showing the participants, a running transcript and a badge reading Recording with consent",
        caption:
          'Live capture of a customer call, with a running transcript and a clear "Recording with consent" notice for everyone on the call.',
      },
      {
        src: listenWise2,
        ...slideSize,
        alt: "A voice memo transcript turned into CRM fields: next step, close date, amount and competitor",
        caption:
          "A voice memo recorded after the meeting becomes next step, close date, amount and competitor fields.",
      },
      {
        src: listenWise3,
        ...slideSize,
        alt: "A review screen of Salesforce field changes showing old and new values side by side, with an Approve all button",
        caption:
          'Review every proposed Salesforce change as a before-and-after diff, then approve them one by one or with "Approve all".',
      },
    ],
    features: [
      {
        icon: "mic",
        title: "Meetings, memos and notes",
        description:
          "Scheduled calls are joined automatically from your calendar. On the road, a two-minute voice memo captures the same detail.",
      },
      {
        icon: "refresh",
        title: "CRM updates you approve",
        description:
          "Stage, next step, close date, amount, competitors and contacts are mapped to your Salesforce, HubSpot or Dynamics fields, ready for one-click review.",
      },
      {
        icon: "shield",
        title: "Consent and control",
        description:
          "Participants are told when a call is recorded, admins choose which meetings are captured, and every CRM change keeps an audit trail.",
      },
    ],
  },
  {
    page: pages.roleWise,
    name: "Role Wise",
    eyebrow: "Role Wise · Views by role",
    title: "The right view for every seat on the sales team",
    lead: "Account executives, sales managers and sales leaders need different answers from the same conversations. Role Wise gives each of them a view built for the decisions they make every day.",
    slides: [
      {
        src: roleWise1,
        ...slideSize,
        alt: "An account executive's Today view listing the day's customer meetings, each with suggested talking points",
        caption:
          "For account executives: today's meetings, each with talking points drawn from the last conversation.",
      },
      {
        src: roleWise2,
        ...slideSize,
        alt: "A sales manager's team pipeline by rep, with coaching flags on deals that show risk",
        caption:
          "For managers: the whole team's pipeline, with coaching flags on the deals that need a conversation this week.",
      },
      {
        src: roleWise3,
        ...slideSize,
        alt: "A sales leader's forecast roll-up with commit and best case totals by team and a list of the biggest risks",
        caption:
          "For sales leaders: a forecast roll-up of commit and best case, with the risks behind the numbers spelled out.",
      },
    ],
    features: [
      {
        icon: "target",
        title: "For account executives",
        description:
          "Prep for the day in minutes: who you are meeting, what you promised last time and what to ask to move the deal forward.",
      },
      {
        icon: "users",
        title: "For sales managers",
        description:
          "See every rep's pipeline with stalled deals, missing next steps and sentiment drops flagged, so one-on-ones start with the right deal.",
      },
      {
        icon: "chart",
        title: "For sales leaders",
        description:
          "Roll up commit and best case across teams and read the evidence behind each number before the forecast call.",
      },
    ],
  },
];

export const assistantProducts: AssistantProduct[] = [
  {
    page: pages.captureWise,
    name: "Capture Wise",
    eyebrow: "Sales Knowledge Chat · Capture Wise",
    title: "Ask anything about your accounts",
    lead: "Capture Wise answers questions about any account in plain language, grounded in the calls, voice memos and notes your team captured. Every answer cites its sources, so you can check it in one click.",
    chat: {
      suggestions: [
        "What objections has Meadowvale Health raised?",
        "Who is the economic buyer at Pallas Robotics?",
        "Summarize my last call with Kite Labs",
      ],
      turns: [
        { from: "user", text: "What objections has Meadowvale Health raised so far?" },
        {
          from: "assistant",
          text: "Three objections came up across your last four conversations. Their IT team is worried about the HIPAA review timeline, Dr. Lena Ortiz asked whether the rollout can wait until after their Q3 system migration, and procurement pushed back on the per-seat price for 120 users.",
          sources: [
            "Call with Meadowvale Health · Mar 4",
            "Voice memo · Mar 6",
            "Call with Meadowvale Health · Mar 18",
          ],
        },
        { from: "user", text: "Has anyone answered the security concern yet?" },
        {
          from: "assistant",
          text: "Partly. Your solutions engineer sent the SOC 2 report on Mar 19, but the HIPAA questionnaire is still open, and their IT director said on the Mar 18 call that they need it before legal review. I'd confirm a completion date on your next call.",
          sources: ["Call with Meadowvale Health · Mar 18", "Note by Sam Patel · Mar 19"],
        },
      ],
    },
    highlights: [
      {
        icon: "message",
        title: "Answers with sources",
        description:
          "Each answer links to the call, memo or note it came from, down to the moment in the transcript.",
      },
      {
        icon: "brain",
        title: "Your team's shared memory",
        description:
          "Ask about any account your team has spoken to, including deals you inherited from a colleague.",
      },
      {
        icon: "shield",
        title: "Respects your permissions",
        description:
          "Capture Wise only answers from conversations you are allowed to see in your CRM.",
      },
    ],
  },
  {
    page: pages.jobWise,
    name: "Job Wise",
    eyebrow: "Sales Knowledge Chat · Job Wise",
    title: "Turn conversations into follow-through",
    lead: "Job Wise reads what was agreed on each call and turns it into follow-up tasks, mutual action plans and reminders. The promises you make to buyers get kept, without a single sticky note.",
    chat: {
      suggestions: [
        "Create follow-ups from today's Pallas Robotics call",
        "Draft a mutual action plan for Sorrel Foods",
        "What did I promise customers this week?",
      ],
      turns: [
        { from: "user", text: "Create follow-ups from today's call with Pallas Robotics." },
        {
          from: "assistant",
          text: "I found four commitments. You: send the revised quote for 45 seats by Thursday, and book a technical deep dive with their robotics platform team. Their side: Marta Nowak will share the security questionnaire, and their CFO will confirm the budget owner. I've added your two as tasks and set a reminder to check on theirs Monday.",
          sources: ["Call with Pallas Robotics · Apr 9"],
        },
        { from: "user", text: "Turn that into a mutual action plan to sign by June 30." },
        {
          from: "assistant",
          text: "Here is a draft working back from June 30: technical deep dive by Apr 18, security review complete by May 9, commercial proposal approved by May 23, legal redlines by June 13 and signature by June 30. Each step has an owner on both sides. Want me to add it to the opportunity and draft the email to Marta?",
          sources: ["Call with Pallas Robotics · Apr 9", "Call with Pallas Robotics · Mar 27"],
        },
      ],
    },
    highlights: [
      {
        icon: "clipboard",
        title: "Follow-ups from every call",
        description:
          "Commitments on both sides become tasks with an owner and a due date, synced to your CRM.",
      },
      {
        icon: "calendar",
        title: "Mutual action plans",
        description:
          "Draft a close plan from the conversations you've had, then share it with your buyer in minutes.",
      },
      {
        icon: "refresh",
        title: "Reminders that arrive on time",
        description:
          "Get nudged before a promised date passes, and when the buyer's side of the plan falls behind.",
      },
    ],
  },
  {
    page: pages.sortWise,
    name: "Sort Wise",
    eyebrow: "Sales Knowledge Chat · Sort Wise",
    title: "Know which deals need you today",
    lead: "Sort Wise ranks your pipeline by risk, momentum and the quality of each next step, using what buyers actually said rather than what the stage field claims. Start every week with the three deals that matter most.",
    chat: {
      suggestions: [
        "Which deals need my attention this week?",
        "Which commit deals have no next step booked?",
        "Rank my pipeline by momentum",
      ],
      turns: [
        { from: "user", text: "Which deals need my attention this week?" },
        {
          from: "assistant",
          text: "Three stand out. Halcyon Cloud – Data platform expansion ($180k, commit) has no meeting booked and the economic buyer missed the last two calls. Sorrel Foods – Supply analytics ($64k) slipped its close date twice and sentiment dropped on the last call. Larkspur Capital – Advisor suite ($95k) is gaining momentum: they asked for an order form.",
          sources: [
            "Call with Halcyon Cloud · May 2",
            "Call with Sorrel Foods · May 6",
            "Call with Larkspur Capital · May 7",
          ],
        },
        { from: "user", text: "Why is Sorrel Foods ranked above Larkspur?" },
        {
          from: "assistant",
          text: 'Sorrel is at risk, Larkspur is not. On the May 6 call their operations lead mentioned a competing pilot with another vendor, and the only next step is a vague "we\'ll circle back". Larkspur has a dated next step and a confirmed signer, so it needs less from you this week.',
          sources: ["Call with Sorrel Foods · May 6", "Call with Larkspur Capital · May 7"],
        },
      ],
    },
    highlights: [
      {
        icon: "target",
        title: "Risk you can explain",
        description:
          "Every ranking comes with the reasons behind it, from a missing economic buyer to a competitor mentioned on a call.",
      },
      {
        icon: "chart",
        title: "Momentum over time",
        description:
          "See which deals are speeding up or cooling down, based on meeting cadence, sentiment and buyer engagement.",
      },
      {
        icon: "calendar",
        title: "Next-step quality",
        description:
          'A dated next step with the right person scores higher than "let\'s reconnect". Weak next steps are flagged for you to fix.',
      },
    ],
  },
];

/** The product whose page is at `path` in one of the lists above; the build fails without one. */
export function productAt<P extends ShowcaseProduct | AssistantProduct>(
  products: P[],
  path: string,
): P {
  const product = products.find((p) => p.page.path === path);
  if (!product) throw new Error(`No product page at ${path}`);
  return product;
}

/** The closing call to action of every product page and article: Book Demo, or the tour first. */
export const productNextStep: {
  title: (productName: string) => string;
  text: string;
  tour: { label: string; href: string };
} = {
  title: (productName) => `See ${productName} on your own deals`,
  text: "Book a 30-minute demo and we run Revwise on a call from your own pipeline. Not ready to talk yet? Take the five-step product tour first.",
  tour: { label: "Take the product tour", href: pages.tour.path },
};

/** The product overview's pointer to the three Sales Knowledge Chat products. */
export const assistantOverview: { eyebrow: string; title: string; lead: string } = {
  eyebrow: "Sales Knowledge Chat",
  title: "Ask Revwise about any account",
  lead: "Three more ways to use what your team captured: ask questions, turn promises into tasks and rank the deals that need you.",
};

export type ProductOverviewSection = {
  product: "business-wise" | "role-wise" | "listen-wise";
  eyebrow: string;
  title: string;
  description: string;
  bullets: string[];
  href: string;
  linkLabel: string;
};

type ProductOverview = { title: string; lead: string; sections: ProductOverviewSection[] };

export const productOverview: ProductOverview = {
  title: "One assistant for the whole revenue team",
  lead: "Revwise captures what your customers say, keeps your CRM current and turns every conversation into deal insight. Three products, one shared memory of every account.",
  sections: [
    {
      product: "business-wise",
      eyebrow: "Business Wise",
      title: "Deal insight written from real conversations",
      description:
        "Get a summary, a qualification checklist and a sentiment trend for every opportunity, built from what buyers actually said on calls, in memos and in notes.",
      bullets: [
        "Deal summaries that update after every meeting",
        "MEDDICC, BANT or your own qualification framework",
        "Sentiment trends and full customer history",
      ],
      href: pages.businessWise.path,
      linkLabel: "Explore Business Wise",
    },
    {
      product: "role-wise",
      eyebrow: "Role Wise",
      title: "A view for every seat on the team",
      description:
        "Account executives see today's meetings and talking points, managers see where to coach, and leaders see the forecast with the evidence behind it.",
      bullets: [
        "A daily prep view for account executives",
        "Team pipeline with coaching flags for managers",
        "Commit and best case roll-ups for sales leaders",
      ],
      href: pages.roleWise.path,
      linkLabel: "Explore Role Wise",
    },
    {
      product: "listen-wise",
      eyebrow: "Listen Wise",
      title: "Capture once, update the CRM automatically",
      description:
        "Revwise joins Zoom, Microsoft Teams and Google Meet calls, transcribes voice memos and reads notes, then proposes the CRM changes for you to approve.",
      bullets: [
        "Meetings captured from your calendar, with consent",
        "Voice memos turned into next steps and close dates",
        "Salesforce, HubSpot and Dynamics updates you review in one click",
      ],
      href: pages.listenWise.path,
      linkLabel: "Explore Listen Wise",
    },
  ],
};

export type OverviewContact = {
  name: string;
  title: string;
  company: string;
  stage: string;
  sentiment: "positive" | "neutral" | "at risk";
  lastTouch: string;
};

/** Rows of the "contacts" mock-up card on the product overview. */
export const overviewContacts: OverviewContact[] = [
  {
    name: "Dana Whitaker",
    title: "VP of Operations",
    company: "Pallas Robotics",
    stage: "Proposal",
    sentiment: "positive",
    lastTouch: "Call · 2 days ago",
  },
  {
    name: "Lena Ortiz",
    title: "Chief Medical Officer",
    company: "Meadowvale Health",
    stage: "Security review",
    sentiment: "neutral",
    lastTouch: "Voice memo · yesterday",
  },
  {
    name: "Tom Ashby",
    title: "Head of Supply Chain",
    company: "Sorrel Foods",
    stage: "Evaluation",
    sentiment: "at risk",
    lastTouch: "Call · 9 days ago",
  },
  {
    name: "Priscilla Nguyen",
    title: "Director of Finance",
    company: "Larkspur Capital",
    stage: "Negotiation",
    sentiment: "positive",
    lastTouch: "Email · today",
  },
];

/** The product slugs that have their own before/after block. */
export type BeforeAfterProduct =
  "capture-wise" | "job-wise" | "business-wise" | "listen-wise" | "role-wise" | "sort-wise";

type BeforeAfterVariants = Record<BeforeAfterProduct | "default", BeforeAfter>;

/**
 * The before/after block of each product page, by the slug in its path; any other path gets the
 * default. The three original path variants live on as the products that carry their story:
 * product-wise (product answers) is Capture Wise's, sales-wise (a process that runs itself) is Job
 * Wise's and deal-wise (every deal as it is) is Business Wise's.
 */
export const beforeAfterVariants: BeforeAfterVariants = {
  "capture-wise": {
    title: "Product answers without the back-and-forth",
    lead: "When a buyer asks a detailed product question, sellers shouldn't have to wait days for an answer. Revwise puts what your team already knows in every rep's hands.",
    before: {
      title: "Before Revwise",
      items: [
        "Reps ping solutions engineers on Slack for answers to routine product questions",
        "Buyers wait days for a follow-up on integrations, security or pricing",
        "Answers given on one call are forgotten by the next",
        "New hires take months to speak confidently about the product",
      ],
    },
    after: {
      title: "With Revwise",
      items: [
        "Ask the Sales Knowledge Chat and get an answer grounded in past calls and notes",
        "See how colleagues answered the same question for similar customers",
        "Every product question a buyer asked is on the deal record",
        "New reps ramp up by reading real conversations, not slide decks",
      ],
    },
  },
  "job-wise": {
    title: "A sales process that runs itself",
    lead: "Your playbook only works if it is followed. Revwise builds the process into every conversation, so the steps happen without another checklist to fill in.",
    before: {
      title: "Before Revwise",
      items: [
        "Qualification frameworks live in a training deck nobody opens",
        "Stage changes depend on each rep's judgment and memory",
        "Follow-ups and next steps are tracked on sticky notes",
        "Managers find process gaps at the end of the quarter",
        "CRM hygiene is a weekly reminder email",
      ],
    },
    after: {
      title: "With Revwise",
      items: [
        "Qualification checklists are filled in from what buyers actually said",
        "Stage changes are proposed with the evidence from the call",
        "Every commitment becomes a task with an owner and a due date",
        "Managers see missing steps while there is still time to act",
        "The CRM stays current after every meeting, automatically",
      ],
    },
  },
  "business-wise": {
    title: "See every deal as it really is",
    lead: "Deals rarely fail all at once. Revwise shows the early signals, from a quiet champion to a vague next step, while you can still do something about them.",
    before: {
      title: "Before Revwise",
      items: [
        "Deal status is whatever the rep said in the last pipeline meeting",
        "Close dates slip quietly from month to month",
        "Nobody notices the economic buyer stopped joining calls",
        "Deal reviews are spent reading notes aloud",
      ],
    },
    after: {
      title: "With Revwise",
      items: [
        "A deal summary that updates itself after every meeting",
        "Slipped close dates and weak next steps are flagged automatically",
        "Sentiment and stakeholder engagement are tracked call by call",
        "Deal reviews start from the facts and focus on the next move",
      ],
    },
  },
  "listen-wise": {
    title: "From a finished call to a correct CRM record",
    lead: "The conversation is over in thirty minutes. Getting it into the CRM used to take the rest of the evening. Listen Wise closes that gap before your next meeting starts.",
    before: {
      title: "Before Revwise",
      items: [
        "Typing up notes from memory after back-to-back calls",
        "Details from calls in the car never reach the CRM",
        "Stage, amount and close date updated once a week, if at all",
        "Contacts who joined a call are missing from the record",
      ],
    },
    after: {
      title: "With Revwise",
      items: [
        "Zoom, Teams and Google Meet calls captured from your calendar, with consent",
        "A two-minute voice memo becomes next step, close date and amount",
        "Field changes proposed as a before-and-after list you approve in one click",
        "New stakeholders added to the record from who actually spoke",
      ],
    },
  },
  "role-wise": {
    title: "One set of conversations, three different jobs",
    lead: "A seller, a manager and a sales leader look at the same deal for different reasons. Role Wise stops making each of them dig for their answer.",
    before: {
      title: "Before Revwise",
      items: [
        "Sellers rebuild their day from the calendar and old emails",
        "Managers learn a deal is stuck when the rep says so",
        "Leaders rebuild the forecast in a spreadsheet every Monday",
        "Everyone reads the same CRM screen looking for something else",
      ],
    },
    after: {
      title: "With Revwise",
      items: [
        "Sellers start the day with each meeting's talking points ready",
        "Managers see coaching flags on stalled deals and missing buyers",
        "Leaders read commit and best case with the evidence behind each number",
        "Each role opens a view built for the decision it has to make",
      ],
    },
  },
  "sort-wise": {
    title: "Your week, ranked by what needs you",
    lead: "A long pipeline hides the three deals that will decide the quarter. Sort Wise puts them at the top and tells you why.",
    before: {
      title: "Before Revwise",
      items: [
        "The pipeline sorted by close date, which nobody trusts",
        "Risky deals noticed after the buyer has gone quiet",
        "Every deal gets the same attention, whatever its momentum",
        '"Let\'s reconnect" passes for a next step',
      ],
    },
    after: {
      title: "With Revwise",
      items: [
        "Deals ranked by risk, momentum and next-step quality",
        "A plain reason behind every ranking, linked to the call it came from",
        "Cooling deals flagged while there is still time to act",
        "Weak next steps marked for you to fix before the forecast call",
      ],
    },
  },
  default: {
    title: "Life before Revwise, and with it",
    lead: "The same team, the same customers and the same CRM. The difference is where the hours go.",
    before: {
      title: "Before Revwise",
      items: [
        "Hours every week retyping call notes into the CRM",
        "Pipeline meetings spent chasing updates",
        "Customer context lost when reps change territories",
        "Forecasts built on gut feel and stale fields",
        "Preparing for a meeting means digging through old emails",
      ],
    },
    after: {
      title: "With Revwise",
      items: [
        "CRM fields updated from every call, memo and note",
        "Deal updates ready before anyone asks",
        "A full history of every conversation on every account",
        "Forecasts backed by what buyers actually said",
        "Talking points waiting for you before each meeting",
      ],
    },
  },
};
