// A script form sends one submission at a time: one that comes while the handler of the last is
// still running is dropped (and not posted by the browser either).
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ScriptForm } from "./script-form.tsx";

describe("ScriptForm", () => {
  it("drops a submission made while the last one's handler still runs, and takes the next", async () => {
    let handled = 0;
    let finish!: () => void;
    render(
      <ScriptForm
        label="Probe"
        onSubmit={(event) => {
          event.preventDefault();
          handled += 1;
          return new Promise<void>((resolve) => (finish = resolve));
        }}
      />,
    );
    const form = screen.getByRole("form", { name: "Probe" });
    expect(fireEvent.submit(form)).toBe(false);
    // A second one in the same tick (two held submissions replayed together).
    expect(fireEvent.submit(form)).toBe(false);
    expect(handled).toBe(1);

    finish();
    await Promise.resolve();
    await Promise.resolve();
    expect(fireEvent.submit(form)).toBe(false);
    expect(handled).toBe(2);
  });
});
