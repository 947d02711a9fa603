// Where a visitor came from, sent with every lead: the page, the referrer and the UTM parameters
// of the visit's landing page (kept for the browser session, so a form on a later page still knows).
import type { LeadSource } from "../../common/leads.ts";

const KEY = "revwise-lead-source";
const UTM = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;

/** Called once per page load: remembers the first external referrer and UTM parameters. */
export function rememberLandingSource(): void {
  try {
    const params = new URLSearchParams(window.location.search);
    const stored = read();
    const utm = Object.fromEntries(
      UTM.filter((k) => params.get(k)).map((k) => [k, params.get(k)!.slice(0, 200)]),
    );
    const external =
      document.referrer && new URL(document.referrer).origin !== window.location.origin
        ? document.referrer
        : undefined;
    const next = {
      ...stored,
      ...(Object.keys(utm).length ? utm : {}),
      ...(!stored.referrer && external ? { referrer: external.slice(0, 2048) } : {}),
    };
    sessionStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage can be unavailable (private modes): leads are still sent, with the page only.
  }
}

export function leadSource(): LeadSource {
  const stored = read();
  return { page: window.location.pathname.slice(0, 2048), ...stored };
}

function read(): Omit<LeadSource, "page"> {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? "{}") as Omit<LeadSource, "page">;
  } catch {
    return {};
  }
}
