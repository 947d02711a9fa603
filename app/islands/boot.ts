// Everything the browser runs once the page has loaded: hydrate the islands, remember where the
// visitor came from, show a toast handed over by the previous page. The toaster's code loads with
// the first toast a page shows, or at an idle moment once an island is live (whichever is first),
// so that a page in use still shows its toasts when the server has gone away meanwhile.
import { rememberLandingSource } from "../lib/lead-source.ts";
import { getToasts, showFlashToasts, subscribeToasts } from "../lib/toast.ts";
import { anIslandLive, hydrateIslands, onIdle } from "./hydrate.ts";
import { showLoadFailure } from "./load-failure.ts";

export function boot() {
  mountToasterOnFirstToast();
  hydrateIslands();
  rememberLandingSource();
  showFlashToasts();
  // Not on the first load's path: a page nobody interacts with never loads it.
  void anIslandLive.then(() => onIdle(() => void loadToaster().catch(() => {})));
}

const loadToaster = () => import("../components/ui/toaster.tsx");

/**
 * If its code cannot load, the toasts waiting are said in the runtime's own alert (the server is
 * unreachable: what failed must still be said), and the next toast tries again.
 */
function mountToasterOnFirstToast() {
  const stop = subscribeToasts(() => {
    stop();
    loadToaster().then(
      (m) => m.mountToaster(),
      () => {
        const waiting = getToasts().filter((t) => t.open);
        showLoadFailure(
          waiting.map((t) => [t.title, t.description].filter(Boolean).join(": ")).join(" "),
        );
        mountToasterOnFirstToast();
      },
    );
  });
}
