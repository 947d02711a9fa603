// The captcha placeholder keeps a tick given before the widget's code has arrived and starts the
// proof of work once the widget has mounted, however late that is.
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createRef } from "react";
import { describe, expect, it, vi } from "vitest";
import { Captcha, type CaptchaHandle } from "./captcha.tsx";

const calls = vi.hoisted(() => ({ verify: 0 }));

// A stand-in for the ALTCHA element with the real one's timing: like every Svelte custom element,
// its methods exist only once its component has mounted, some time after it is connected, and it
// announces that with a "load" event.
vi.mock("altcha", () => {
  class SlowWidget extends HTMLElement {
    connectedCallback() {
      setTimeout(() => {
        Object.assign(this, {
          verify: async () => {
            calls.verify += 1;
            const detail = { state: "verified", payload: "solved" };
            this.dispatchEvent(new CustomEvent("statechange", { detail }));
          },
          reset: () => {},
        });
        this.dispatchEvent(new CustomEvent("load"));
      }, 30);
    }
  }
  customElements.define("altcha-widget", SlowWidget);
  return {};
});

describe("Captcha", () => {
  it("solves a tick given before the widget has mounted, once", async () => {
    const onChange = vi.fn();
    const handle = createRef<CaptchaHandle>();
    render(<Captcha onChange={onChange} ref={handle} />);
    fireEvent.click(screen.getByRole("button", { name: "I'm not a robot" }));
    // Resetting before the widget is live clears the answer without touching the widget.
    handle.current!.reset();
    expect(onChange).toHaveBeenLastCalledWith(null);

    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith("solved"));
    expect(calls.verify).toBe(1);
  });
});
