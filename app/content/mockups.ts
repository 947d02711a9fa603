// Where each product mock-up is cropped on a phone (components/ui/mockup.tsx draws it there at
// its own size): the part of the picture that tells its story, a rectangle in the picture's own
// pixels. Every text of the picture is either wholly inside it or wholly outside (no word is cut:
// tests/e2e/looks.test.ts), and it is no wider than the narrowest column that shows the picture
// on a 390 px phone (hero and features 358 px, product carousels and the tour 340, autopilot 332),
// so that it is drawn at 1× there; on a narrower phone it is scaled down whole.
import autopilotDynamics from "../assets/autopilot/autopilot-dynamics.svg";
import autopilotHubspot from "../assets/autopilot/autopilot-hubspot.svg";
import autopilotSalesforce from "../assets/autopilot/autopilot-salesforce.svg";
import crmSync from "../assets/features/crm-sync.svg";
import dealSentiment from "../assets/features/deal-sentiment.svg";
import dealSummary from "../assets/features/deal-summary.svg";
import meetingCapture from "../assets/features/meeting-capture.svg";
import talkingPoints from "../assets/features/talking-points.svg";
import heroDashboard from "../assets/hero/hero-dashboard.svg";
import businessWise1 from "../assets/product/business-wise-1.svg";
import businessWise2 from "../assets/product/business-wise-2.svg";
import businessWise3 from "../assets/product/business-wise-3.svg";
import listenWise1 from "../assets/product/listen-wise-1.svg";
import listenWise2 from "../assets/product/listen-wise-2.svg";
import listenWise3 from "../assets/product/listen-wise-3.svg";
import roleWise1 from "../assets/product/role-wise-1.svg";
import roleWise2 from "../assets/product/role-wise-2.svg";
import roleWise3 from "../assets/product/role-wise-3.svg";

/** A part of a picture, in the picture's own pixels. */
type Crop = { x: number; y: number; width: number; height: number };

const crop = (x: number, y: number, width: number, height: number): Crop => ({
  x,
  y,
  width,
  height,
});

const focus = new Map<string, Crop>([
  [heroDashboard, crop(821, 60, 358, 360)], // the meeting recap and its AI summary
  [meetingCapture, crop(62, 36, 340, 370)], // the call and its live transcript
  [crmSync, crop(282, 20, 358, 400)], // the CRM record the call filled in
  [dealSummary, crop(56, 36, 358, 370)], // the deal and its AI summary
  [talkingPoints, crop(56, 36, 340, 370)], // the four talking points
  [dealSentiment, crop(36, 32, 336, 240)], // the score and the start of the trend
  [autopilotSalesforce, crop(38, 112, 284, 230)], // the fields Revwise filled in
  [autopilotHubspot, crop(254, 118, 332, 210)], // the activities logged on the deal
  [autopilotDynamics, crop(262, 116, 332, 250)], // the contacts and activities synced
  [businessWise1, crop(44, 104, 340, 356)], // the AI deal summary and its figures
  [businessWise2, crop(30, 32, 340, 368)], // the MEDDICC checklist
  [businessWise3, crop(422, 38, 340, 400)], // the trend improving, and the customer's history
  [listenWise1, crop(386, 36, 340, 400)], // the live transcript beside the call
  [listenWise2, crop(12, 262, 340, 200)], // the fields taken from the voice memo
  [listenWise3, crop(422, 92, 340, 360)], // the new values, approved and synced
  [roleWise1, crop(8, 34, 340, 400)], // the seller's day
  [roleWise2, crop(24, 36, 340, 400)], // the team's pipeline by rep
  [roleWise3, crop(442, 104, 337, 348)], // the deals at risk
]);

/** The phone crop of a picture (its top left, at most 320 × 400, when none is set). */
export function mockupFocus(image: { src: string; width: number; height: number }): Crop {
  return (
    focus.get(image.src) ?? crop(0, 0, Math.min(image.width, 320), Math.min(image.height, 400))
  );
}
