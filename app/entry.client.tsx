// The browser's entry: the pages are static HTML; this hydrates their interactive islands.
import { hydrateIslands } from "./islands/hydrate.ts";

hydrateIslands();
