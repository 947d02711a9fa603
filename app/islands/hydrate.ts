// Browser side of the islands: finds every [data-island] of the page and hydrates it as its own
// React root, when its data-hydrate strategy says so.
import { createElement, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { islands, type IslandName } from "./registry.ts";

const INTENT_EVENTS = ["pointerenter", "pointerdown", "touchstart", "focusin"] as const;

export function hydrateIslands(root: ParentNode = document): void {
  for (const el of root.querySelectorAll<HTMLElement>("[data-island]")) schedule(el);
}

function schedule(el: HTMLElement) {
  switch (el.dataset.hydrate) {
    case "idle":
      return onIdle(() => void hydrate(el));
    case "visible":
      return onVisible(el, () => void hydrate(el));
    case "interaction":
      return onInteraction(el);
    default:
      return void hydrate(el);
  }
}

const hydrated = new WeakMap<HTMLElement, Promise<void>>();

/** Hydrates once; resolves when the island's code has run (React commits synchronously after). */
export function hydrate(el: HTMLElement): Promise<void> {
  let done = hydrated.get(el);
  if (!done) {
    done = load(el);
    hydrated.set(el, done);
  }
  return done;
}

async function load(el: HTMLElement) {
  const name = el.dataset.island as IslandName;
  const loader = islands[name];
  if (!loader) return console.error(`Unknown island "${name}"`);
  const Component = (await loader()) as ComponentType<Record<string, unknown>>;
  const props = JSON.parse(el.dataset.props ?? "{}") as Record<string, unknown>;
  hydrateRoot(el, createElement(Component, props), {
    identifierPrefix: el.dataset.prefix,
    onRecoverableError: (error) => console.error(`Island "${name}" recovered from`, error),
  });
  el.dataset.hydrated = "";
}

function onIdle(run: () => void) {
  if ("requestIdleCallback" in window) requestIdleCallback(run, { timeout: 3000 });
  else setTimeout(run, 200);
}

function onVisible(el: HTMLElement, run: () => void) {
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        run();
      }
    },
    { rootMargin: "200px" },
  );
  // A display: contents wrapper has no box, and neither have the <link>s React puts before
  // preloaded images: watch every child that renders.
  const targets =
    el.style.display === "contents" ? [...el.children].filter((c) => !NO_BOX.has(c.tagName)) : [el];
  for (const target of targets.length ? targets : [el]) observer.observe(target);
}

const NO_BOX = new Set(["LINK", "SCRIPT", "STYLE", "META", "TEMPLATE"]);

/**
 * Hydrates at the first sign of intent. A click that lands before the code has run is held and
 * replayed on the same element once the island is live, so nothing the visitor does is lost.
 */
function onInteraction(el: HTMLElement) {
  // The visitor may already be there (the runtime starts after the page's load event).
  const engaged =
    el.contains(document.activeElement) || [...el.children].some((c) => c.matches(":hover"));
  if (engaged) return void hydrate(el);
  const start = () => {
    for (const type of INTENT_EVENTS) el.removeEventListener(type, start, true);
    void hydrate(el);
  };
  for (const type of INTENT_EVENTS)
    el.addEventListener(type, start, { capture: true, passive: true });
  const holdClick = (event: Event) => {
    if (el.dataset.hydrated !== undefined) return el.removeEventListener("click", holdClick, true);
    const target = event.target as Element;
    const clickable = target.closest<HTMLElement>(
      "a, button, input, label, select, textarea, summary, [role]",
    );
    if (!clickable) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    void hydrate(el).then(() => requestAnimationFrame(() => clickable.click()));
  };
  el.addEventListener("click", holdClick, true);
}
