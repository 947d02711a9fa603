// Every interactive part of the site ("island"): a name and the code that runs it in the
// browser, loaded only when the island is hydrated. Pages are otherwise static HTML.
// Each area keeps its own list (islands/registry-*.ts).
import type { ComponentType } from "react";
import { accountIslands } from "./registry-account.ts";
import { homeIslands } from "./registry-home.ts";
import { layoutIslands } from "./registry-layout.ts";
import { pageIslands } from "./registry-pages.ts";
import { productIslands } from "./registry-products.ts";
import { teamIslands } from "./registry-team.ts";

export const islands = {
  ...layoutIslands,
  ...homeIslands,
  ...productIslands,
  ...pageIslands,
  ...accountIslands,
  ...teamIslands,
};

export type IslandName = keyof typeof islands;
export type IslandComponent<N extends IslandName> = Awaited<ReturnType<(typeof islands)[N]>>;
/** The props an island receives: serialisable, since they travel in the page as JSON. */
export type IslandPropsOf<N extends IslandName> =
  IslandComponent<N> extends ComponentType<infer P> ? P : never;
