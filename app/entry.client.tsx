// The browser's entry: the pages are static HTML; this hydrates their interactive islands.
import { hydrateIslands } from "./islands/hydrate.ts";
import { rememberLandingSource } from "./lib/lead-source.ts";
import { showFlashToasts } from "./lib/toast.ts";

hydrateIslands();
rememberLandingSource();
showFlashToasts();
