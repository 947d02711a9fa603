// An island whose code fails to load: the failure is forgotten (the next attempt loads again), a
// held button press or submission is met with the runtime's own alert until a later load works,
// and a held link is followed.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createElement } from "react";
import { holdEvents } from "./held-events.ts";
import { hydrate, hydrateIslands } from "./hydrate.ts";
import { LOAD_FAILURE_MESSAGE } from "./load-failure.ts";

const loader = vi.hoisted(() => ({ fails: 0, calls: 0 }));

vi.mock("./registry.ts", () => ({
  islands: {
    "contact-form": async () => {
      loader.calls += 1;
      if (loader.fails > 0) {
        loader.fails -= 1;
        throw new TypeError("Failed to fetch dynamically imported module");
      }
      return ({ label }: { label: string }) =>
        createElement("button", { type: "button", onClick: pressed }, label);
    },
  },
}));

const pressed = vi.fn();

function island(html: string): HTMLElement {
  const el = document.createElement("div");
  el.dataset.island = "contact-form";
  el.dataset.hydrate = "interaction";
  el.dataset.props = JSON.stringify({ label: "Send" });
  el.innerHTML = html;
  document.body.append(el);
  return el;
}

const alerts = () => [...document.querySelectorAll("[role=alert]")].map((a) => a.textContent);
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("an island whose code cannot load", () => {
  afterEach(() => {
    document.body.replaceChildren();
    loader.fails = 0;
    loader.calls = 0;
    pressed.mockClear();
    vi.restoreAllMocks();
  });

  it("loads again on the next attempt instead of keeping the failure", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const el = island(`<button type="button">Send</button>`);
    loader.fails = 1;
    await expect(hydrate(el)).rejects.toThrow("Failed to fetch");
    expect(el.dataset.hydrated).toBeUndefined();
    await hydrate(el);
    expect(loader.calls).toBe(2);
    expect(el.dataset.hydrated).toBe("");
  });

  it("answers a held press with one alert outside the island, gone once a later press works", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    holdEvents();
    const el = island(`<button type="button">Send</button>`);
    hydrateIslands();
    loader.fails = 2;
    el.querySelector("button")!.click();
    await settle();
    expect(alerts()).toEqual([LOAD_FAILURE_MESSAGE]);
    expect(document.querySelector("[role=alert]")!.closest("[data-island]")).toBeNull();
    el.querySelector("button")!.click();
    await settle();
    expect(alerts()).toEqual([LOAD_FAILURE_MESSAGE]); // said again, still once on the page
    expect(pressed).not.toHaveBeenCalled();

    el.querySelector("button")!.click();
    await settle();
    expect(alerts()).toEqual([]);
    expect(pressed).toHaveBeenCalledOnce();
  });

  it("follows a held link when its island cannot load", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    holdEvents();
    const el = island(`<a href="/request-access" aria-haspopup="dialog">Request Access</a>`);
    hydrateIslands();
    loader.fails = 1;
    el.querySelector("a")!.click();
    await settle();
    expect(assign).toHaveBeenCalledWith(new URL("/request-access", window.location.href).href);
    expect(alerts()).toEqual([]);
  });
});
