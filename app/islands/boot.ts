// Everything the browser runs once the page has loaded: hydrate the islands, remember where the
// visitor came from, show a toast handed over by the previous page.
import { rememberLandingSource } from "../lib/lead-source.ts";
import { showFlashToasts } from "../lib/toast.ts";
import { hydrateIslands } from "./hydrate.ts";

export function boot() {
  hydrateIslands();
  rememberLandingSource();
  showFlashToasts();
}
