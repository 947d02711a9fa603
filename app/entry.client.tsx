// The browser's entry. The page is complete HTML; its interactive islands wake up once the page
// has loaded, so React's code never competes with the first paint (docs/decisions/0008). Until
// then, clicks and submissions aimed at an island are held for the runtime to replay, and the
// header shows Logout at once to a visitor with a stored session.
import { HELD_EVENT_TYPES, holdIfAsleep, type HeldEvent } from "./islands/held-events.ts";
import { hasStoredSession, showAccountState } from "./lib/account-signals.ts";

if (hasStoredSession()) showAccountState("signed-in");

const held: HeldEvent[] = [];
const hold = (event: Event) => {
  const pending = holdIfAsleep(event);
  if (pending) held.push(pending);
};
for (const type of HELD_EVENT_TYPES) document.addEventListener(type, hold, true);

const start = () =>
  void import("./islands/boot.ts").then((m) => {
    for (const type of HELD_EVENT_TYPES) document.removeEventListener(type, hold, true);
    m.boot(held);
  });

if (document.readyState === "complete") start();
else window.addEventListener("load", start, { once: true });
