// What a visitor does to an island before its code runs is not lost: a click on one of its
// controls, the submission of one of its forms, or a key one of its elements takes (a carousel's
// ← and →, named in its data-held-keys) is held (the browser's own default, such as a form sent as
// a GET query string, is stopped) and replayed once the island is live.
// The page's inline start script holds them from the first paint (holdEvents); the islands
// runtime, when it arrives, wakes the island of each (handHeldEvents), and says what to do when
// the island's code cannot load (islands/hydrate.ts): a held link is then followed.

import { opensElsewhere } from "../lib/link-clicks.ts";

export type HeldEvent = {
  island: HTMLElement;
  replay: () => void;
  /** Where a held link leads: the way on when its island cannot wake. */
  href?: string;
};

const CONTROL = [
  "button",
  // Links the island turns into controls (a menu trigger, a dialog opener). Without script they
  // lead to a page that does the same job; with it, the click waits for the control.
  "a[aria-haspopup]",
  "a[aria-expanded]",
  "label",
  "summary",
  "input[type=checkbox]",
  "input[type=radio]",
  "[role=button]",
  "[role=checkbox]",
  "[role=switch]",
  "[role=tab]",
].join(", ");

const HELD_EVENT_TYPES = ["click", "submit", "keydown"] as const;

/** Holds the event when it targets an island that is not live yet; null when it may go on. */
export function holdIfAsleep(event: Event): HeldEvent | null {
  const target = event.target;
  if (!(target instanceof Element)) return null;
  const island = target.closest<HTMLElement>("[data-island]");
  if (!island || island.dataset.hydrated !== undefined) return null;
  let replay: () => void;
  let href: string | undefined;
  if (event.type === "submit") {
    const form = target as HTMLFormElement;
    replay = () => form.isConnected && form.requestSubmit();
  } else if (event instanceof KeyboardEvent) {
    // Only the keys an element of the island says it takes, without a shortcut's modifiers and
    // not a held key's repeats (they would replay as a burst): Tab, Enter on a button (a click)
    // and the page's own keys go on as without script.
    const { key, code, shiftKey } = event;
    const taker = target.closest<HTMLElement>("[data-held-keys]");
    const takes = taker?.dataset.heldKeys?.split(" ").includes(key);
    if (!takes || event.repeat || event.altKey || event.ctrlKey || event.metaKey) return null;
    const init = { key, code, shiftKey, bubbles: true, cancelable: true };
    replay = () => target.isConnected && target.dispatchEvent(new KeyboardEvent("keydown", init));
  } else {
    // Links and text fields work without script; only controls that need code are held.
    const control = target.closest<HTMLElement>(CONTROL);
    if (!control) return null;
    // A click asking for a new tab or window follows such a link.
    if (
      control instanceof HTMLAnchorElement &&
      event instanceof MouseEvent &&
      opensElsewhere(event)
    )
      return null;
    replay = () => control.isConnected && control.click();
    if (control instanceof HTMLAnchorElement) href = control.href;
  }
  event.preventDefault();
  event.stopImmediatePropagation();
  return { island, replay, ...(href ? { href } : {}) };
}

declare global {
  interface Window {
    /** Set by holdEvents: where what it holds goes from now on. */
    revwiseHeldEvents?: (handler: (event: HeldEvent) => void) => void;
  }
}

/**
 * Holds events aimed at sleeping islands, from the page's start script on: they wait in a list
 * until the runtime names a handler (handHeldEvents), then go to it as they happen. Returns what
 * to do when the runtime cannot load: hold nothing more, and let the latest held event happen as
 * it would without JavaScript (a link is followed, a form is posted to the page that says what
 * it needs).
 */
export function holdEvents(): () => void {
  const held: HeldEvent[] = [];
  let handle: (event: HeldEvent) => void = (event) => void held.push(event);
  const hold = (event: Event) => {
    const pending = holdIfAsleep(event);
    if (pending) handle(pending);
  };
  for (const type of HELD_EVENT_TYPES) document.addEventListener(type, hold, true);
  window.revwiseHeldEvents = (handler) => {
    handle = handler;
    for (const event of held.splice(0)) handler(event);
  };
  return () => {
    for (const type of HELD_EVENT_TYPES) document.removeEventListener(type, hold, true);
    held.splice(0).pop()?.replay();
  };
}

/** Every event holdEvents held so far, then each one it holds, goes to `handler`. */
export function handHeldEvents(handler: (event: HeldEvent) => void): void {
  window.revwiseHeldEvents?.(handler);
}
