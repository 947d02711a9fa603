// Every page of the site: its path, title and description (for <title>, meta and Open Graph).
// The prerender list and the sitemap come from here and from the blog folder.
import {
  BLOG_NOT_FOUND_ROUTE,
  DEMO_PAGE_ROUTE,
  JAVASCRIPT_REQUIRED_ROUTE,
  NOT_FOUND_ROUTE,
  REQUEST_ACCESS_ROUTE,
} from "../../common/site-build.ts";
import { EMAIL_LINK_PAGE } from "../../common/accounts.ts";

export type PageInfo = {
  path: string;
  title: string;
  description: string;
  /** For no search engine (a step of a flow, an account, a notice): noindex, not in the sitemap. */
  noindex?: true;
};

export const pages = {
  home: {
    path: "/",
    title: "Revwise: the AI sales assistant that fills your CRM for you",
    description:
      "Revwise captures every sales conversation, updates Salesforce, HubSpot or Dynamics automatically and tells sellers and managers where each deal really stands.",
  },
  auth: {
    path: "/auth",
    title: "Sign in · Revwise",
    description: "Sign in to your Revwise account, or create one with your work email.",
    noindex: true,
  },
  account: {
    path: "/account",
    title: "Your account · Revwise",
    description:
      "Your Revwise account: name, email, password, two-step verification and where you're signed in.",
    noindex: true,
  },
  oauthConsent: {
    path: "/oauth/consent",
    title: "Allow an app · Revwise",
    description:
      "An app asks to use your Revwise account: see who asks and for what, then allow or deny.",
    noindex: true,
  },
  team: {
    path: "/team",
    title: "Team workspace · Revwise",
    description:
      "The Revwise team's workspace: leads, emails, newsletter subscribers, webhooks and page analytics.",
    noindex: true,
  },
  javascriptRequired: {
    path: JAVASCRIPT_REQUIRED_ROUTE,
    title: "This form needs JavaScript · Revwise",
    description:
      "The forms on the Revwise site send with JavaScript on. Turn it on and try again, or write to us by email.",
    noindex: true,
  },
  requestAccess: {
    path: REQUEST_ACCESS_ROUTE,
    title: "Request access · Revwise",
    description:
      "Tell us about you and your team: we set up your Revwise workspace and reply within one business day.",
  },
  emailLink: {
    path: EMAIL_LINK_PAGE,
    title: "Use your email link · Revwise",
    description:
      "Use the link of a Revwise email: confirm an address, sign in or reset a password.",
    noindex: true,
  },
  resetPassword: {
    path: "/auth/reset-password",
    title: "Choose a new password · Revwise",
    description: "Set a new password for your Revwise account.",
    noindex: true,
  },
  faq: {
    path: "/faq",
    title: "Frequently asked questions · Revwise",
    description:
      "What Revwise is, how it captures meetings and updates your CRM, how to get started, what it costs, how it keeps your data secure and how calls are recorded with consent.",
  },
  blog: {
    path: "/blog",
    title: "Blog · Revwise",
    description:
      "Field notes on AI in sales, CRM hygiene and deal execution from the Revwise team.",
  },
  contact: {
    path: "/contact",
    title: "Contact us · Revwise",
    description:
      "Talk to the Revwise team in Seattle: email, phone, working hours and a message form.",
  },
  company: {
    path: "/company",
    title: "About us · Revwise",
    description:
      "The people behind Revwise, our vision for sales teams and the advisors who keep us honest.",
  },
  useCases: {
    path: "/use-cases",
    title: "Use cases · Revwise",
    description:
      "How account executives, sales managers, sales leaders and RevOps teams use Revwise to sell with less admin and more insight.",
  },
  requestDemo: {
    path: "/request-demo",
    title: "Request a demo · Revwise",
    description:
      "Tell us about your team and we will set up a personal Revwise demo on your own sales process.",
  },
  terms: {
    path: "/terms-of-service",
    title: "Terms of service · Revwise",
    description: "The terms that govern the use of the Revwise website and service.",
  },
  privacy: {
    path: "/privacy-policy",
    title: "Privacy policy · Revwise",
    description:
      "What personal data Revwise collects, why, how long we keep it and the rights you have.",
  },
  cookies: {
    path: "/cookies-policy",
    title: "Cookie policy · Revwise",
    description:
      "The cookies and browser storage the Revwise website uses, and how to control them.",
  },
  zoom: {
    path: "/zoom-documentation",
    title: "Connect Zoom · Revwise documentation",
    description:
      "Connect your Zoom account to Revwise in five steps so your meetings are captured automatically.",
  },
  documentation: {
    path: "/documentation",
    title: "Documentation · Revwise",
    description:
      "Set up Revwise: connect your CRM and calendar, capture meetings, voice memos and notes, and review deal insight.",
  },
  products: {
    path: "/product",
    title: "Products · Revwise",
    description:
      "Listen Wise, Business Wise and Role Wise: three ways Revwise turns conversations into CRM data and deal insight.",
  },
  tour: {
    path: DEMO_PAGE_ROUTE,
    title: "Product tour · Revwise",
    description:
      "Follow one deal through Revwise step by step: the meeting captured, CRM fields proposed and approved, then the deal summary and talking points for the next call.",
  },
  businessWise: {
    path: "/product/business-wise",
    title: "Business Wise · Revwise",
    description:
      "Deal summaries, qualification checklists and deal sentiment for every opportunity, written from your real conversations.",
  },
  listenWise: {
    path: "/product/listen-wise",
    title: "Listen Wise · Revwise",
    description:
      "Revwise joins Zoom, Teams and Google Meet calls, takes voice memos and notes, and turns them into clean CRM updates.",
  },
  roleWise: {
    path: "/product/role-wise",
    title: "Role Wise · Revwise",
    description:
      "Views built for account executives, sales managers and sales leaders: the next step, the coaching moment, the forecast risk.",
  },
  captureWise: {
    path: "/product/capture-wise",
    title: "Capture Wise · Revwise",
    description:
      "Ask Revwise anything about your accounts and get answers grounded in every call, memo and note your team captured.",
  },
  jobWise: {
    path: "/product/job-wise",
    title: "Job Wise · Revwise",
    description:
      "Turn conversations into follow-up tasks, mutual action plans and reminders without leaving your sales knowledge chat.",
  },
  sortWise: {
    path: "/product/sort-wise",
    title: "Sort Wise · Revwise",
    description:
      "Find the deals that need you today: Revwise ranks your pipeline by risk, momentum and next-step quality.",
  },
  resources: {
    path: "/resources",
    title: "Resources · Revwise",
    description:
      "Everything to learn Revwise and sell with it: the blog, integrations, documentation, the Zoom guide, use cases and the FAQ.",
  },
  integrations: {
    path: "/resources/integrations",
    title: "Integrations · Revwise",
    description:
      "Revwise works with Salesforce, HubSpot, Microsoft Dynamics, Google Calendar, Outlook, Zoom, Microsoft Teams and Google Meet.",
  },
} satisfies Record<string, PageInfo>;

/** The legal documents (content/legal/<path>.md): each page, its route id and its name in lists. */
export const legalPages = [
  { id: "terms", page: pages.terms, label: "Terms of Service" },
  { id: "privacy", page: pages.privacy, label: "Privacy Policy" },
  { id: "cookies", page: pages.cookies, label: "Cookies Policy" },
] as const;

export const notFoundPage: PageInfo = {
  path: NOT_FOUND_ROUTE,
  title: "Page not found · Revwise",
  description: "The page you are looking for does not exist or has moved.",
  noindex: true,
};

/** Files generated from resource routes (see app/routes.ts). */
const resourcePaths = ["/sitemap.xml", "/robots.txt", "/blog/rss.xml"];

export function prerenderPaths(blogSlugs: string[]): string[] {
  return [
    ...Object.values(pages).map((p) => p.path),
    ...blogSlugs.map((slug) => `/blog/${slug}`),
    NOT_FOUND_ROUTE,
    REQUEST_ACCESS_ROUTE,
    BLOG_NOT_FOUND_ROUTE,
    ...resourcePaths,
  ];
}
