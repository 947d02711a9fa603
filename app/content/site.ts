import { DEFAULT_BOOK_DEMO_URL, REQUEST_ACCESS_ROUTE } from "../../common/site-build.ts";
import type { IconName } from "./types.ts";

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

export type NavLink = { label: string; href: string; description?: string; icon?: IconName };

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
    icon: "message",
  },
  {
    label: "Integrations",
    href: "/resources/integrations",
    description: "Salesforce, HubSpot, Dynamics, Zoom, Meet, calendars.",
    icon: "refresh",
  },
];

/**
 * Where the menus lead when they cannot open (the page's script is not running): the products
 * and resources pages, and the footer's navigation (its id), which lists every page.
 */
export const menuFallbacks = {
  products: "/product",
  resources: "/resources",
  siteMenuId: "site-menu",
};

/** /resources: every page that helps people learn and use Revwise. */
export const resourcePages: NavLink[] = [
  ...resourceLinks,
  {
    label: "Documentation",
    href: "/documentation",
    description: "Connect your CRM and calendar, capture meetings, read deal insight.",
    icon: "clipboard",
  },
  {
    label: "Zoom guide",
    href: "/zoom-documentation",
    description: "Connect Zoom in five steps so every call is captured.",
    icon: "mic",
  },
  {
    label: "Use cases",
    href: "/use-cases",
    description: "How sellers, managers, leaders and RevOps use Revwise.",
    icon: "users",
  },
  {
    label: "FAQ",
    href: "/faq",
    description: "What Revwise does, how it works and how to get started.",
    icon: "target",
  },
];

export const mainLinks: NavLink[] = [
  { label: "About Us", href: "/company" },
  { label: "Contact Us", href: "/contact" },
];

/** The account page, linked from the header for someone signed in. */
export const accountLink: NavLink = { label: "Your account", href: "/account" };

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
    { label: "Integrations", href: "/resources/integrations" },
    { label: "Documentation", href: "/documentation" },
    { label: "Use Cases", href: "/use-cases" },
    { label: "Newsletter", href: "/newsletter" },
  ] satisfies NavLink[],
  company: [
    ...mainLinks,
    { label: "Request Access", href: REQUEST_ACCESS_ROUTE },
    { label: "Sign in", href: "/auth" },
  ] satisfies NavLink[],
  products: [
    { label: "All products", href: "/product" },
    ...productLinks.map(({ label, href }) => ({ label, href })),
  ],
  newsletter: {
    title: "Stay in the loop",
    text: "One email a month: new features, field-tested sales plays and the occasional strong opinion.",
    archive: { label: "Read past issues", href: "/newsletter" } satisfies NavLink,
    /**
     * What the sign-up is told (decision 0055): a new address has to confirm first, a pending one
     * is told whether its confirmation went again, a subscribed one that it already is.
     */
    toasts: {
      pending: {
        title: "Almost done",
        description: "Check your inbox: confirm your address with the link we just sent you.",
      },
      resent: {
        title: "Confirmation sent again",
        description:
          "Your address is waiting for its confirmation: we sent the link again. Check your inbox.",
      },
      waiting: {
        title: "Check your inbox",
        description:
          "We sent your confirmation link less than an hour ago: confirm your address with it.",
      },
      subscribed: {
        title: "Already subscribed",
        description: "This email is already subscribed to our newsletter.",
      },
      failed: {
        title: "Subscription failed",
        description: "There was a problem subscribing to the newsletter. Please try again later.",
      },
      invalid: { title: "Invalid email", description: "Please enter a valid email address." },
    },
  },
};
