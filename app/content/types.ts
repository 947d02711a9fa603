// Shapes of the site's copy. Content modules (content/*.ts) export data of these types;
// sections (sections/*.tsx) render them.
import type { PageInfo } from "./pages.ts";

/** An image made in the repo (app/assets/…), imported so that its URL is hashed. */
export type ImageRef = { src: string; alt: string; width: number; height: number };

/** A line that names an address (an email), shown in bold between the two parts. */
export type AddressLine = { before: string; after: string };

export type Point = { title: string; description: string };

export type IconName =
  | "keyboard"
  | "refresh"
  | "clipboard"
  | "brain"
  | "mic"
  | "sparkles"
  | "chart"
  | "shield"
  | "users"
  | "calendar"
  | "target"
  | "message";

export type Pain = Point & { icon: IconName };

/** A feature item: title, description, image, optional className. */
export type FeatureItem = {
  title: string;
  description: string;
  image: ImageRef;
  className?: string;
};

/** A testimonial: id, name, role, image, quote (plus the company, shown with the role). */
export type Testimonial = {
  id: string;
  name: string;
  role: string;
  company: string;
  image: string;
  quote: string;
};

export type Logo = { name: string; src: string; width: number; height: number };

/** An FAQ item: question, answer, isSpecial; nextSteps shows Request Access and Book Demo under the answer. */
export type FaqItem = {
  question: string;
  answer: string;
  isSpecial?: boolean;
  nextSteps?: boolean;
};

type Slide = ImageRef & { caption: string };

/** Business-, listen- and role-wise: hero, 779×484 image carousel, three-feature strip. */
export type ShowcaseProduct = {
  page: PageInfo;
  name: string;
  eyebrow: string;
  title: string;
  lead: string;
  slides: Slide[];
  features: [Point & { icon: IconName }, Point & { icon: IconName }, Point & { icon: IconName }];
};

export type ChatTurn = { from: "user" | "assistant"; text: string; sources?: string[] };

/** Capture-, job- and sort-wise: hero and the static "Sales Knowledge Chat" mock. */
export type AssistantProduct = {
  page: PageInfo;
  name: string;
  eyebrow: string;
  title: string;
  lead: string;
  chat: { suggestions: string[]; turns: ChatTurn[] };
  highlights: [Point & { icon: IconName }, Point & { icon: IconName }, Point & { icon: IconName }];
};

export type BeforeAfter = {
  title: string;
  lead: string;
  before: { title: string; items: string[] };
  after: { title: string; items: string[] };
};

export type Integration = {
  name: string;
  category: "CRM" | "Calendar and meetings";
  description: string;
  logo: string;
};
