// The FAQ page: its questions in order; the first is shown as a dismissible highlighted card.
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
      "Ask for access: click Request Access and tell us about your team, or click Book Demo to pick a time and see Revwise on your own sales process first. Either way, we set up your workspace, and the person who asked receives an email with the link to the Revwise app. An admin then connects your CRM (about 30 minutes), each seller connects their calendar (about five minutes), and your next scheduled customer call is captured automatically.",
  },
  {
    question: "How much does Revwise cost?",
    answer:
      "Revwise is priced per seat: you pay for the sellers, managers and leaders who use it. We don't publish a price list, because the price depends on your seat count. Book a demo or send us a message on the Contact page, and our sales team sends you a quote for your team.",
  },
  {
    question: "How does Revwise keep our data secure?",
    answer:
      "Recordings, transcripts and CRM data are encrypted in transit (TLS) and at rest, and access follows each person's role and your CRM's hierarchy, so people see only the deals they should. Admins decide how long recordings and transcripts are kept, from 30 days to until deleted, and deleting a meeting removes its recording, transcript and insight. Single sign-on (SAML 2.0 with Okta, Microsoft Entra ID or Google Workspace) can be required for every member, and our data processing terms are available on request.",
  },
  {
    question: "Do participants know when a call is recorded?",
    answer:
      "Yes. Revwise joins a call as Revwise Notetaker (recording) and posts a message in the meeting chat saying that the meeting is being recorded and transcribed. Any participant can remove it from the meeting, and the recording then stops. Admins choose which meetings are captured, can edit that message and can add a recording notice to calendar invitations. These notices do not replace the law: some places, including several US states, require every participant's consent before a call is recorded, and you remain responsible for the consents that apply to you and your buyers.",
  },
];
