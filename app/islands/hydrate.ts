// Browser side of the islands: finds every [data-island] of the page and hydrates it as its own
// React root, when its data-hydrate strategy says so. React itself loads with the first island
// that wakes: a page nobody touches runs none of it.
import type { ComponentType } from "react";
import { hasAccountState } from "../lib/account-signals.ts";
import { handHeldEvents, type HeldEvent } from "./held-events.ts";
import { islands, type IslandName } from "./registry.ts";

const INTENT_EVENTS = ["pointerenter", "pointerdown", "touchstart", "focusin"] as const;

export function hydrateIslands(): void {
  // A click or submission that reached an island not live yet (held by the page's start script
  // since the first paint) wakes it and is replayed there; so does every later one.
  handHeldEvents(wake);
  for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) schedule(el);
}

/**
 * At once after hydrateRoot, not a frame later: React hydrates the root synchronously for a
 * discrete event, so the replay reaches the element it was meant for before any effect of the
 * island can replace that element.
 */
function wake(event: HeldEvent) {
  void hydrate(event.island).then(event.replay);
}

function schedule(el: HTMLElement) {
  switch (el.dataset.hydrate) {
    case "idle":
      return onIdle(() => void hydrate(el));
    case "visible":
      return onVisible(el, () => void hydrate(el));
    case "interaction":
      return onInteraction(el);
    case "session":
      return hasAccountState() ? void hydrate(el) : onInteraction(el);
    default:
      return void hydrate(el);
  }
}

const hydrated = new WeakMap<HTMLElement, Promise<void>>();

/** Hydrates once; resolves when hydrateRoot has been called (React then hydrates concurrently). */
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
  const [loaded, { createElement }, { hydrateRoot }] = await Promise.all([
    loader(),
    import("react"),
    import("react-dom/client"),
  ]);
  const Component = loaded as ComponentType<Record<string, unknown>>;
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

/** Hydrates at the first sign of intent (a click that comes first is held: held-events.ts). */
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
}
