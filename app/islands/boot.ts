// Everything the browser runs once the page has loaded: hydrate the islands, remember where the
// visitor came from, show a toast handed over by the previous page (the toaster itself loads with
// the first toast a page shows).
import { rememberLandingSource } from "../lib/lead-source.ts";
import { showFlashToasts, subscribeToasts } from "../lib/toast.ts";
import { hydrateIslands } from "./hydrate.ts";

export function boot() {
  mountToasterOnFirstToast();
  hydrateIslands();
  rememberLandingSource();
  showFlashToasts();
}

/** If its code cannot load, the next toast tries again (and shows the ones still waiting). */
function mountToasterOnFirstToast() {
  const stop = subscribeToasts(() => {
    stop();
    import("../components/ui/toaster.tsx").then(
      (m) => m.mountToaster(),
      () => mountToasterOnFirstToast(),
    );
  });
}
