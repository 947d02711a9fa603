// Everything the browser runs once the page has loaded: hydrate the islands, remember where the
// visitor came from, show a toast handed over by the previous page.
import { rememberLandingSource } from "../lib/lead-source.ts";
import { showFlashToasts } from "../lib/toast.ts";
import type { HeldEvent } from "./held-events.ts";
import { hydrateIslands } from "./hydrate.ts";

/** `held`: what the visitor did to islands before this runtime arrived, to be replayed. */
export function boot(held: readonly HeldEvent[] = []) {
  hydrateIslands(held);
  rememberLandingSource();
  showFlashToasts();
}
