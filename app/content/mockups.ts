// Where each product mock-up is cropped on a phone (components/ui/mockup.tsx draws it there at
// its own size): the part of the picture that tells its story, as a CSS object-position.
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

const LEFT = "0% 0%";
const focus = new Map<string, string>([
  [heroDashboard, "100% 0%"], // the meeting recap that updated the CRM
  [meetingCapture, "0% 40%"], // the call and its live transcript
  [crmSync, "100% 50%"], // the CRM record the call filled in
  [dealSummary, "0% 40%"], // the AI summary
  [talkingPoints, "0% 40%"],
  [dealSentiment, "0% 40%"], // the score and the start of the trend
  [autopilotSalesforce, "0% 50%"],
  [autopilotHubspot, "0% 50%"],
  [autopilotDynamics, "0% 50%"],
  [businessWise1, LEFT],
  [businessWise2, LEFT],
  [businessWise3, LEFT],
  [listenWise1, "100% 0%"], // the live transcript beside the call
  [listenWise2, LEFT],
  [listenWise3, "35% 0%"], // each field before and after
  [roleWise1, "100% 0%"], // the talking points of the next meeting
  [roleWise2, LEFT],
  [roleWise3, LEFT],
]);

/** The CSS object-position of a mock-up's phone crop (its top left when none is set). */
export function mockupFocus(src: string): string {
  return focus.get(src) ?? LEFT;
}
