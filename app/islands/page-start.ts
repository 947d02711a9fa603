// The page's first script. The build inlines it into <head> as a classic script (vite.config.ts,
// `?inline-script`), so it runs before the first paint and costs no request. It shows the account
// button a stored session calls for, holds what the visitor does to islands until their code runs
// (or lets it go if that code cannot load), and asks for the page's entry module (the URL in its
// `data-entry`) only once the page has painted: no script competes with the first paint
// (docs/decisions/0008).
import { showAccountState, storedSession } from "../lib/account-signals.ts";
import { holdEvents } from "./held-events.ts";

const entry = (document.currentScript as HTMLScriptElement | null)?.dataset.entry;

showAccountState(storedSession());
const release = holdEvents();
if (entry) afterFirstPaint(() => loadModule(entry, release));

/** Loads the runtime; if it cannot load, the page goes on as it does without JavaScript. */
function loadModule(src: string, onError: () => void) {
  const script = document.createElement("script");
  script.type = "module";
  script.src = src;
  script.onerror = onError;
  document.head.append(script);
}

/**
 * Runs `then` once, after the first contentful paint. Without Paint Timing, or if no paint is
 * reported (a tab opened in the background paints only when shown), two seconds after load.
 */
function afterFirstPaint(then: () => void) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    then();
  };
  if (PerformanceObserver.supportedEntryTypes?.includes("paint")) {
    new PerformanceObserver((list, observer) => {
      if (!list.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      setTimeout(once);
    }).observe({ type: "paint", buffered: true });
  }
  const fallback = () => setTimeout(once, 2000);
  if (document.readyState === "complete") fallback();
  else window.addEventListener("load", fallback, { once: true });
}
