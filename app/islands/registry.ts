// Every interactive part of the site ("island"): a name and the code that runs it in the
// browser, loaded only when the island is hydrated. Pages are otherwise static HTML.
import type { ComponentType } from "react";

export const islands = {
  "desktop-nav": () => import("../components/layout/desktop-nav.tsx").then((m) => m.DesktopNav),
  "mobile-nav": () => import("../components/layout/mobile-nav.tsx").then((m) => m.MobileNav),
};

export type IslandName = keyof typeof islands;
export type IslandComponent<N extends IslandName> = Awaited<ReturnType<(typeof islands)[N]>>;
/** The props an island receives: serialisable, since they travel in the page as JSON. */
export type IslandPropsOf<N extends IslandName> =
  IslandComponent<N> extends ComponentType<infer P> ? P : never;
