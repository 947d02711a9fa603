// Testimonials (three, and the "Trusted by" claim). Fictional people
// and companies; portraits are SVG illustrations made in the repo.
import rachelKim from "../assets/people/rachel-kim.svg";
import marcusBell from "../assets/people/marcus-bell.svg";
import anaSouza from "../assets/people/ana-souza.svg";
import type { Testimonial } from "./types.ts";

export const testimonialsSection: {
  title: string;
  claim: "Trusted by 10,000+ companies around the world";
} = {
  title: "What sellers say after a quarter with Revwise",
  claim: "Trusted by 10,000+ companies around the world",
};

export const testimonials: Testimonial[] = [
  {
    id: "rachel-kim",
    name: "Rachel Kim",
    role: "Account Executive",
    company: "Northwind Analytics",
    image: rachelKim,
    quote:
      "I used to block Friday afternoons just to catch up on Salesforce. Now I approve the updates Revwise proposes right after each call, and it takes me a couple of minutes. The talking points before a renewal call have saved me more than once.",
  },
  {
    id: "marcus-bell",
    name: "Marcus Bell",
    role: "VP of Sales",
    company: "Lumen Freight",
    image: marcusBell,
    quote:
      "Our forecast call used to be forty minutes of reps reading their notes aloud. With Revwise the deal summaries and risks are already on screen, so we spend the time on the three deals that actually need a decision. I trust the pipeline because I can see where each number came from.",
  },
  {
    id: "ana-souza",
    name: "Ana Souza",
    role: "Sales Manager",
    company: "Brightpath Health",
    image: anaSouza,
    quote:
      "When a rep moved territories last spring, her replacement had every conversation, stakeholder and open commitment on day one. Sentiment trends tell me which deals to coach on before they stall, not after.",
  },
];
