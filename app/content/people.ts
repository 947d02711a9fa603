// The team, the board of advisors and the blog's authors. Fictional people;
// portraits are SVG illustrations made in the repo. Fictional people have no profiles on real
// sites, so no profile link is invented for them.
import daniel from "../assets/people/daniel-okafor.svg";
import priya from "../assets/people/priya-raman.svg";
import lukas from "../assets/people/lukas-weber.svg";
import elena from "../assets/people/elena-marquez.svg";
import james from "../assets/people/james-whitfield.svg";
import aiko from "../assets/people/aiko-tanaka.svg";
import sofia from "../assets/people/sofia-brandt.svg";

export type Person = {
  id: string;
  name: string;
  role: string;
  image: string;
  bio: string;
  /** The person's own public profile; set only for a profile that really exists. */
  linkedin?: string;
};

export const team: Person[] = [
  {
    id: "daniel-okafor",
    name: "Daniel Okafor",
    role: "CEO & Founder",
    image: daniel,
    bio: "Daniel carried a quota for twelve years, from SDR to regional VP, and spent too many Sunday evenings updating Salesforce. He started Revwise so that sellers could spend that time with customers instead.",
  },
  {
    id: "priya-raman",
    name: "Priya Raman",
    role: "Founding Engineer",
    image: priya,
    bio: "Priya builds the speech and language pipeline that turns a messy sales call into clean CRM fields. Before Revwise she worked on real-time transcription for contact centers.",
  },
  {
    id: "lukas-weber",
    name: "Lukas Weber",
    role: "Founding Engineer",
    image: lukas,
    bio: "Lukas owns the integrations: Salesforce, HubSpot, Dynamics, calendars and meeting platforms. He cares about one thing above all: that nothing Revwise writes to your CRM is ever lost or duplicated.",
  },
];

export const advisors: Person[] = [
  {
    id: "elena-marquez",
    name: "Elena Marquez",
    role: "Former Chief Revenue Officer",
    image: elena,
    bio: "Elena scaled two SaaS companies from their first hundred customers past $150M in annual recurring revenue and advises us on how sales leaders forecast.",
  },
  {
    id: "james-whitfield",
    name: "James Whitfield",
    role: "Enterprise Sales Leader",
    image: james,
    bio: "James has led enterprise sales teams in three continents and keeps Revwise honest about what account executives actually need in a six-month deal cycle.",
  },
  {
    id: "aiko-tanaka",
    name: "Aiko Tanaka",
    role: "Applied AI Researcher",
    image: aiko,
    bio: "Aiko researches how language models summarize long conversations faithfully. She advises on evaluation, so that every summary Revwise writes can be traced back to what was said.",
  },
  {
    id: "sofia-brandt",
    name: "Sofia Brandt",
    role: "Revenue Operations Advisor",
    image: sofia,
    bio: "Sofia has run RevOps for companies selling through hundreds of reps. She helps us design the CRM mappings, permissions and audit trails that operations teams ask for.",
  },
];
