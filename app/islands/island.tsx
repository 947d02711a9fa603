// Build-time side of the islands: an <Island> renders its component to HTML on its own (as the
// browser will hydrate it, as its own root) and records what the browser needs to hydrate it.
// This module is used while prerendering only; the browser runs islands/hydrate.ts.
import { useContext, useId } from "react";
import { renderToString } from "react-dom/server";
import { UNSAFE_FrameworkContext } from "react-router";
import pageStart from "./page-start.ts?inline-script";
import type { IslandComponent, IslandName, IslandPropsOf } from "./registry.ts";

/**
 * When the browser hydrates the island: at load, when the main thread is idle, when it scrolls
 * into view, or at the first sign of interaction (pointer, touch, focus; a click is replayed).
 * "session": at load when the visitor has account state to show (lib/account-signals.ts), at the
 * first interaction otherwise, so an anonymous visit loads no React at all until it is used.
 */
type HydrateOn = "load" | "idle" | "visible" | "interaction" | "session";

type IslandProps<N extends IslandName> = {
  name: N;
  component: IslandComponent<N>;
  props: IslandPropsOf<N>;
  hydrate: HydrateOn;
  /** The wrapper element (it lays out as if absent: display: contents). */
  as?: "div" | "span" | "li";
  className?: string;
};

export function Island<N extends IslandName>({
  name,
  component,
  props,
  hydrate,
  as: Tag = "div",
  className,
}: IslandProps<N>) {
  const prefix = `${name}-${useId().replace(/[^a-zA-Z0-9]/g, "")}-`;
  const Component = component as unknown as React.ComponentType<Record<string, unknown>>;
  const html = renderToString(<Component {...(props as Record<string, unknown>)} />, {
    identifierPrefix: prefix,
  });
  return (
    <Tag
      data-island={name}
      data-hydrate={hydrate}
      data-prefix={prefix}
      data-props={JSON.stringify(props)}
      className={className}
      style={className ? undefined : { display: "contents" }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/**
 * The page's first script, inline (islands/page-start.ts): it loads the build's client entry, the
 * module that hydrates the islands, once the page has painted.
 */
export function IslandScripts() {
  const framework = useContext(UNSAFE_FrameworkContext);
  if (!framework) throw new Error("IslandScripts must render inside React Router");
  const { entry, hmr } = framework.manifest;
  return (
    <>
      {/* Development only: React Refresh's preamble must run before any island's module. */}
      {hmr?.runtime && <script type="module" src={hmr.runtime} />}
      <script data-entry={entry.module} dangerouslySetInnerHTML={{ __html: pageStart }} />
    </>
  );
}
