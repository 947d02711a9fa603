import { afterEach, describe, expect, it, vi } from "vitest";
import { handHeldEvents, holdEvents, holdIfAsleep, type HeldEvent } from "./held-events.ts";

function island(html: string, hydrated = false): HTMLElement {
  const el = document.createElement("div");
  el.dataset.island = "contact-form";
  if (hydrated) el.dataset.hydrated = "";
  el.innerHTML = html;
  document.body.append(el);
  return el;
}

function dispatch(target: Element, type: "click" | "submit") {
  const event = new Event(type, { bubbles: true, cancelable: true });
  let held: ReturnType<typeof holdIfAsleep> = null;
  document.addEventListener(type, (e) => (held = holdIfAsleep(e)), { capture: true, once: true });
  target.dispatchEvent(event);
  return { event, held: held as ReturnType<typeof holdIfAsleep> };
}

describe("events aimed at an island before its code runs", () => {
  afterEach(() => document.body.replaceChildren());

  it("holds a click on a control (the button, not the text inside it) and replays it there", () => {
    const el = island(`<button type="button"><span>I'm not a robot</span></button>`);
    const button = el.querySelector("button")!;
    const clicks = vi.fn();
    const { event, held } = dispatch(el.querySelector("span")!, "click");
    expect(event.defaultPrevented).toBe(true);
    expect(held?.island).toBe(el);
    expect(held?.href).toBeUndefined();
    button.addEventListener("click", clicks);
    held!.replay();
    expect(clicks).toHaveBeenCalledOnce();
  });

  it("holds a form's submission, so the browser does not send it as a query string, and replays it", () => {
    const el = island(`<form><input name="email"><button>Send</button></form>`);
    const form = el.querySelector("form")!;
    const { event, held } = dispatch(form, "submit");
    expect(event.defaultPrevented).toBe(true);
    const requestSubmit = vi.spyOn(form, "requestSubmit").mockImplementation(() => {});
    held!.replay();
    expect(requestSubmit).toHaveBeenCalledOnce();
  });

  it("lets links, text fields and anything outside islands work as they do without script", () => {
    const el = island(`<a href="/about">About</a><input name="email">`);
    const outside = document.createElement("button");
    document.body.append(outside);
    for (const target of [el.querySelector("a")!, el.querySelector("input")!, outside]) {
      const { event, held } = dispatch(target, "click");
      expect(held).toBeNull();
      expect(event.defaultPrevented).toBe(false);
    }
  });

  it("holds a plain click on a link the island turns into a control, not one for a new tab", () => {
    const el = island(
      `<a href="/request-access" aria-haspopup="dialog"><span>Request Access</span></a>` +
        `<a href="/product" aria-expanded="false"><span>Products</span></a>`,
    );
    for (const link of el.querySelectorAll("a")) {
      const { event, held } = dispatch(link.firstChild as Element, "click");
      expect(event.defaultPrevented).toBe(true);
      // Where to go instead if the island's code cannot load.
      expect(held!.href).toBe(link.href);
      const clicks = vi.fn((e: Event) => e.preventDefault());
      link.addEventListener("click", clicks);
      held!.replay();
      expect(clicks).toHaveBeenCalledOnce();
    }
    const link = el.querySelector("a")!;
    const event = new MouseEvent("click", { bubbles: true, cancelable: true, ctrlKey: true });
    let held: ReturnType<typeof holdIfAsleep> = null;
    document.addEventListener("click", (e) => (held = holdIfAsleep(e)), {
      capture: true,
      once: true,
    });
    link.dispatchEvent(event);
    expect(held).toBeNull();
    event.preventDefault();
  });

  it("holds a key an island's element takes (data-held-keys) and replays it there, not other keys", () => {
    const el = island(
      `<div tabindex="0" data-held-keys="ArrowLeft ArrowRight"><button>Next</button></div>`,
    );
    const button = el.querySelector("button")!;
    const press = (key: string, modifiers: KeyboardEventInit = {}) => {
      const event = new KeyboardEvent("keydown", {
        key,
        bubbles: true,
        cancelable: true,
        ...modifiers,
      });
      let held: ReturnType<typeof holdIfAsleep> = null;
      document.addEventListener("keydown", (e) => (held = holdIfAsleep(e)), {
        capture: true,
        once: true,
      });
      button.dispatchEvent(event);
      return { event, held: held as ReturnType<typeof holdIfAsleep> };
    };
    const { event, held } = press("ArrowRight");
    expect(event.defaultPrevented).toBe(true);
    const keys = vi.fn((e: KeyboardEvent) => e.key);
    el.addEventListener("keydown", keys);
    held!.replay();
    expect(keys).toHaveReturnedWith("ArrowRight");
    for (const [key, modifiers] of [
      ["ArrowDown", {}],
      ["Tab", {}],
      ["ArrowRight", { altKey: true }],
      ["ArrowRight", { repeat: true }],
    ] as const) {
      const other = press(key, modifiers);
      expect(other.held, key).toBeNull();
      expect(other.event.defaultPrevented, key).toBe(false);
    }
  });

  it("leaves a live island to React", () => {
    const el = island(`<button type="button">Open</button>`, true);
    const { event, held } = dispatch(el.querySelector("button")!, "click");
    expect(held).toBeNull();
    expect(event.defaultPrevented).toBe(false);
  });

  it("does not replay on an element the island has since removed", () => {
    const el = island(`<button type="button">Tick</button>`);
    const button = el.querySelector("button")!;
    const { held } = dispatch(button, "click");
    const clicks = vi.fn();
    button.addEventListener("click", clicks);
    button.remove();
    held!.replay();
    expect(clicks).not.toHaveBeenCalled();
  });

  it("holds from the page's start, then hands what it held and what follows to the runtime", () => {
    const el = island(`<button type="button">Open</button>`);
    const button = el.querySelector("button")!;
    const click = () => {
      const event = new MouseEvent("click", { bubbles: true, cancelable: true });
      button.dispatchEvent(event);
      return event;
    };
    const release = holdEvents();
    expect(click().defaultPrevented).toBe(true);
    const handed: HeldEvent[] = [];
    handHeldEvents((event) => handed.push(event));
    expect(handed.map((h) => h.island)).toEqual([el]);
    expect(click().defaultPrevented).toBe(true);
    expect(handed).toHaveLength(2);
    el.dataset.hydrated = "";
    expect(click().defaultPrevented).toBe(false);
    expect(handed).toHaveLength(2);
    release();
  });

  it("lets go when the runtime cannot load: holds nothing more, and the latest held click happens", () => {
    const el = island(`<button type="button">Open</button>`);
    const button = el.querySelector("button")!;
    let clicks = 0;
    el.addEventListener("click", () => clicks++);
    const release = holdEvents();
    button.click();
    button.click();
    expect(clicks).toBe(0);
    release();
    expect(clicks).toBe(1);
    button.click();
    expect(clicks).toBe(2);
  });
});
