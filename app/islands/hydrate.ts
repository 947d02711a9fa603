// Browser side of the islands: finds every [data-island] of the page and hydrates it as its own
// React root, when its data-hydrate strategy says so. React itself loads with the first island
// that wakes: a page nobody touches runs none of it. A load that fails (the network is down, or a
// deploy has removed the files an older page asks for) is forgotten, so the next attempt loads
// again.
import type { ComponentType } from "react";
import { hasAccountState } from "../lib/account-signals.ts";
import { handHeldEvents, type HeldEvent } from "./held-events.ts";
import { hideLoadFailure, showLoadFailure } from "./load-failure.ts";
import { islands, type IslandName } from "./registry.ts";

const INTENT_EVENTS = ["pointerenter", "pointerdown", "touchstart", "focusin"] as const;

let markLive!: () => void;
/** Resolves when the first island of the page is live (its code loaded and hydrated). */
export const anIslandLive = new Promise<void>((resolve) => (markLive = resolve));

export function hydrateIslands(): void {
  // A click or submission that reached an island not live yet (held by the page's start script
  // since the first paint) wakes it and is replayed there; so does every later one.
  handHeldEvents(wake);
  for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) schedule(el);
}

/**
 * At once after hydrateRoot, not a frame later: React hydrates the root synchronously for a
 * discrete event, so the replay reaches the element it was meant for before any effect of the
 * island can replace that element. When the island's code cannot load, a held link is followed
 * (it leads to a page that does the same job) and anything else is met with an alert; the
 * visitor's next try loads again.
 */
function wake(event: HeldEvent) {
  hydrate(event.island).then(event.replay, () => {
    if (event.href) return window.location.assign(event.href);
    alerted.add(event.island);
    showLoadFailure();
  });
}

/** Hydrates without waiting: a failure has been reported, and the next attempt tries again. */
const start = (el: HTMLElement) => void hydrate(el).catch(() => {});

function schedule(el: HTMLElement) {
  switch (el.dataset.hydrate) {
    case "idle":
      return onIdle(() => start(el));
    case "visible":
      return onVisible(el, () => start(el));
    case "interaction":
      return onInteraction(el);
    case "session":
      return hasAccountState() ? start(el) : onInteraction(el);
    default:
      return start(el);
  }
}

const hydrated = new WeakMap<HTMLElement, Promise<void>>();
/** Islands whose failed load showed the visitor the alert. */
const alerted = new WeakSet<HTMLElement>();

/**
 * Hydrates once; resolves when hydrateRoot has been called (React then hydrates concurrently).
 * Rejects when the island's code cannot load, and forgets it: the next call loads again.
 */
export function hydrate(el: HTMLElement): Promise<void> {
  let done = hydrated.get(el);
  if (!done) {
    done = load(el).then(
      () => {
        // A later attempt worked: the alert a failed one showed has done its job.
        if (alerted.delete(el)) hideLoadFailure();
      },
      (error: unknown) => {
        hydrated.delete(el);
        console.error(`Island "${el.dataset.island}" could not load`, error);
        throw error;
      },
    );
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
  markLive();
}

export function onIdle(run: () => void) {
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
  if (engaged) return void hydrate(el).catch(() => onIntent(el));
  onIntent(el);
}

/** Hydrates at the next sign of intent; a load that fails waits for the one after. */
function onIntent(el: HTMLElement) {
  const attempt = () => {
    for (const type of INTENT_EVENTS) el.removeEventListener(type, attempt, true);
    hydrate(el).catch(() => onIntent(el));
  };
  for (const type of INTENT_EVENTS)
    el.addEventListener(type, attempt, { capture: true, passive: true });
}
