// The Integrations page: CRMs, calendars and meeting tools.
import salesforce from "../assets/integrations/salesforce.svg";
import hubspot from "../assets/integrations/hubspot.svg";
import dynamics from "../assets/integrations/dynamics.svg";
import googleCalendar from "../assets/integrations/google-calendar.svg";
import outlook from "../assets/integrations/outlook.svg";
import zoom from "../assets/integrations/zoom.svg";
import microsoftTeams from "../assets/integrations/microsoft-teams.svg";
import googleMeet from "../assets/integrations/google-meet.svg";
import type { Integration } from "./types.ts";

export const integrationsIntro: { title: string; lead: string } = {
  title: "Works with the tools your team already uses",
  lead: "Connect your CRM, your calendar and your meeting platform, and Revwise does the rest: it captures your customer conversations and writes the results where your team already works.",
};

export const integrations: Integration[] = [
  {
    name: "Salesforce",
    category: "CRM",
    logo: salesforce,
    description:
      "Revwise updates opportunity stage, next step, close date, amount and your custom fields after every call, and adds new contacts with their role on the deal. Every change is logged and linked to the conversation it came from.",
  },
  {
    name: "HubSpot",
    category: "CRM",
    logo: hubspot,
    description:
      "Revwise keeps deal properties, pipeline stages and associated contacts current, and logs a meeting summary on the deal timeline. Your HubSpot reports reflect what was actually said.",
  },
  {
    name: "Microsoft Dynamics",
    category: "CRM",
    logo: dynamics,
    description:
      "Revwise updates opportunities in Dynamics 365 Sales, including estimated revenue and close date, and attaches notes and activities to the right record.",
  },
  {
    name: "Google Calendar",
    category: "Calendar and meetings",
    logo: googleCalendar,
    description:
      "Revwise reads your calendar to find customer meetings, matches attendees to accounts and contacts, and prepares talking points before each one.",
  },
  {
    name: "Outlook",
    category: "Calendar and meetings",
    logo: outlook,
    description:
      "Revwise connects to your Outlook calendar to schedule meeting capture for Teams and Zoom calls and to link each meeting to the right opportunity.",
  },
  {
    name: "Zoom",
    category: "Calendar and meetings",
    logo: zoom,
    description:
      "Revwise joins your scheduled Zoom meetings with consent, records and transcribes them, and turns the conversation into CRM updates and a deal summary.",
  },
  {
    name: "Microsoft Teams",
    category: "Calendar and meetings",
    logo: microsoftTeams,
    description:
      "Revwise joins the Teams meetings on your Outlook calendar with consent, transcribes who said what, and turns the call into a deal summary and CRM updates for you to approve.",
  },
  {
    name: "Google Meet",
    category: "Calendar and meetings",
    logo: googleMeet,
    description:
      "Revwise captures your Google Meet calls from your calendar, writes the transcript and summary, and proposes the CRM changes for you to approve.",
  },
];
