// The FAQ page: five items; the first is shown as a dismissible highlighted card.
import type { FaqItem } from "./types.ts";

export const faqs: FaqItem[] = [
  {
    question: "What is Revwise?",
    isSpecial: true,
    answer:
      "Revwise is an AI sales assistant for account executives, sales managers and sales leaders. It captures your customer conversations, updates your CRM automatically and turns every call into deal summaries, talking points, qualification checklists and sentiment. The goal is simple: less admin, more selling, and a clear view of every deal.",
  },
  {
    question: "How does Revwise work?",
    answer:
      "You connect your calendar, your meeting tool (Zoom, Microsoft Teams or Google Meet) and your CRM (Salesforce, HubSpot or Microsoft Dynamics). Revwise joins scheduled customer calls with consent, transcribes voice memos and reads the notes you add, then proposes updates to fields such as next step, close date, amount and stage. You approve the changes, and Revwise keeps a summary and history on every opportunity.",
  },
  {
    question: "What challenges do sales teams face today?",
    answer:
      "Sellers spend a large share of their week on CRM data entry instead of talking to customers, so records are incomplete and out of date. Managers chase reps for deal updates, deal reviews become status readouts, and what customers said on calls is lost when people change roles. The result is a forecast built on guesswork.",
  },
  {
    question: "How does Revwise address these challenges?",
    answer:
      "Revwise fills in the CRM from the conversations themselves, so data entry shrinks to a quick review after each call. Every deal gets a living summary, a qualification checklist and a sentiment trend, which turns deal reviews into coaching sessions. And because every call, memo and note is kept and searchable, customer knowledge stays with the account instead of leaving with a person.",
  },
  {
    question: "How do I get started?",
    nextSteps: true,
    answer:
      "Sign up for a demo: click Book Demo to pick a time with our team, or Request Access to create your account. In the demo we connect a calendar and a sandbox CRM and capture a real call, so you see Revwise on your own sales process. Once your calendar and CRM are connected, your next scheduled customer call is captured automatically.",
  },
];
