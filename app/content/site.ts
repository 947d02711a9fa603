import { DEFAULT_BOOK_DEMO_URL } from "../../common/site-build.ts";

// Site-wide copy and links: brand, navigation, footer, contact details.
// Contact details and the scheduling link are configurable at build time (VITE_* variables).

export const brand = {
  name: "Revwise",
  tagline: "Get to revenue better and faster",
  description:
    "Revwise is the AI sales assistant that captures your conversations, keeps your CRM up to date and shows every seller and manager where each deal stands.",
  copyrightYear: 2025,
};

export const contact = {
  email: import.meta.env.VITE_CONTACT_EMAIL ?? "hello@revwise.example",
  phone: import.meta.env.VITE_CONTACT_PHONE ?? "+1 (206) 555-0142",
  location: "Seattle, WA",
  hours: "08:00 AM - 05:00 PM",
  hoursNote: "Monday to Friday, Pacific Time",
};

/** The external scheduling page behind every "Book Demo" link (opens in a new tab). */
export const bookDemoUrl: string = import.meta.env.VITE_BOOK_DEMO_URL ?? DEFAULT_BOOK_DEMO_URL;

export type NavLink = { label: string; href: string; description?: string };

export const productLinks: NavLink[] = [
  {
    label: "Listen Wise",
    href: "/product/listen-wise",
    description: "Capture calls, voice memos and notes; update the CRM automatically.",
  },
  {
    label: "Business Wise",
    href: "/product/business-wise",
    description: "Deal summaries, qualification and sentiment for every opportunity.",
  },
  {
    label: "Role Wise",
    href: "/product/role-wise",
    description: "The right view for sellers, managers and sales leaders.",
  },
];

export const resourceLinks: NavLink[] = [
  {
    label: "Blog",
    href: "/blog",
    description: "Field notes on AI, CRM hygiene and deal execution.",
  },
  {
    label: "Integrations",
    href: "/resources/integrations",
    description: "Salesforce, HubSpot, Dynamics, Zoom, Meet, calendars.",
  },
];

export const mainLinks: NavLink[] = [
  { label: "About Us", href: "/company" },
  { label: "Contact Us", href: "/contact" },
];

export const footer = {
  blurb: "The AI sales assistant that turns every conversation into CRM data and deal insight.",
  legal: [
    { label: "Terms of Service", href: "/terms-of-service" },
    { label: "Privacy Policy", href: "/privacy-policy" },
    { label: "Cookies Policy", href: "/cookies-policy" },
    { label: "Zoom Documentation", href: "/zoom-documentation" },
  ] satisfies NavLink[],
  resources: [
    { label: "Blog", href: "/blog" },
    { label: "FAQ", href: "/faq" },
    { label: "Documentation", href: "/documentation" },
    { label: "Use Cases", href: "/use-cases" },
  ] satisfies NavLink[],
  products: [
    { label: "All products", href: "/product" },
    ...productLinks.map(({ label, href }) => ({ label, href })),
  ],
  newsletter: {
    title: "Stay in the loop",
    text: "One email a month: new features, field-tested sales plays and the occasional strong opinion.",
  },
};
