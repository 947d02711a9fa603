// The Contact page: intro and reasons to reach out. The contact details
// themselves (email, phone, location, hours) are in site.ts.
import type { Point } from "./types.ts";

export const contactIntro: { title: string; lead: string } = {
  title: "Talk to the Revwise team",
  lead: "Questions about Revwise, your account or a partnership? Send us a message and a person on our Seattle team will reply within one business day.",
};

export const contactReasons: Point[] = [
  {
    title: "Sales",
    description:
      "See how Revwise fits your team, your CRM and your sales process, and get pricing for your seat count.",
  },
  {
    title: "Support",
    description:
      "Need help connecting Zoom, mapping CRM fields or managing your team? We'll help you get it working.",
  },
  {
    title: "Partnerships",
    description:
      "Consultancies, resellers and technology partners: let's talk about bringing Revwise to your customers.",
  },
];
