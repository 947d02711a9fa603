// The Zoom connection guide: five steps and troubleshooting.
import type { Point } from "./types.ts";

export type ZoomGuide = {
  title: string;
  lead: string;
  steps: { title: string; description: string }[];
  troubleshooting: Point[];
};

export const zoomGuide: ZoomGuide = {
  title: "Connect Zoom to Revwise",
  lead: "Once Zoom is connected, Revwise joins the customer meetings on your calendar, captures them with consent and turns each conversation into CRM updates. It takes about five minutes, in the Revwise app your team signs in to (not this website).",
  steps: [
    {
      title: "Log in to Revwise",
      description:
        "Open the Revwise app from the link in your workspace invitation and sign in with your work email and password. The app is separate from this website: signing in here does not open it. If your team doesn't have a workspace yet, use Request Access or Book Demo first.",
    },
    {
      title: "Go to Integrations, then Zoom",
      description:
        "In the app, open Integrations from your account menu and select Zoom in the list of meeting tools.",
    },
    {
      title: 'Click "Connect with Zoom"',
      description:
        "Revwise sends you to Zoom to sign in with the Zoom account you use for customer meetings.",
    },
    {
      title: "Authorize Revwise in the Zoom App Marketplace",
      description:
        "Review the permissions Revwise asks for (reading your scheduled meetings and their recordings) and click Allow. If your company restricts Zoom apps, your Zoom admin may need to approve Revwise first.",
    },
    {
      title: "Confirm on your dashboard",
      description:
        "Back in the Revwise app, Zoom shows as Connected on your dashboard, along with the upcoming meetings Revwise will capture. Your next scheduled customer call is captured automatically.",
    },
  ],
  troubleshooting: [
    {
      title: "Revwise doesn't appear in the Zoom App Marketplace",
      description:
        'Your Zoom account admin may have restricted app installs. Ask them to pre-approve Revwise in the Zoom App Marketplace, then click "Connect with Zoom" again.',
    },
    {
      title: "My meetings aren't being captured",
      description:
        "Check that the meeting is on the calendar you connected to Revwise and that it was created from the same Zoom account you authorized. Meetings with no external attendees are skipped by default.",
    },
    {
      title: "I want to disconnect Zoom",
      description:
        "In the Revwise app, go to Integrations, then Zoom, and click Disconnect, or remove Revwise from Manage > Installed Apps in the Zoom App Marketplace. Captures stop immediately; existing transcripts follow your data retention settings.",
    },
  ],
};
