import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { getToasts, removeToast } from "./toast.ts";
import { useBusyAction } from "./use-busy-action.ts";

describe("useBusyAction", () => {
  afterEach(() => removeToast());

  it("is busy while the action runs, and not once it is done", async () => {
    const { result } = renderHook(() => useBusyAction());
    let finish!: () => void;
    let done!: Promise<void>;
    act(() => {
      done = result.current[1](() => new Promise<void>((resolve) => (finish = resolve)));
    });
    expect(result.current[0]).toBe(true);
    await act(async () => {
      finish();
      await done;
    });
    expect(result.current[0]).toBe(false);
    expect(getToasts()).toEqual([]);
  });

  it("ignores a second action asked before the first is done, even before a render", async () => {
    const { result } = renderHook(() => useBusyAction());
    const run = result.current[1];
    const finishes: (() => void)[] = [];
    const action = () => new Promise<void>((resolve) => finishes.push(resolve));
    let both!: Promise<void[]>;
    act(() => {
      both = Promise.all([run(action), run(action)]);
    });
    expect(finishes).toHaveLength(1);
    await act(async () => {
      for (const finish of finishes) finish();
      await both;
    });
    await act(() => run(async () => void finishes.push(() => {})));
    expect(finishes).toHaveLength(2);
  });

  it("shows a failure as a toast and is no longer busy", async () => {
    const { result } = renderHook(() => useBusyAction());
    await act(() =>
      result.current[1](async () => {
        throw new Error("The server said no.");
      }),
    );
    expect(result.current[0]).toBe(false);
    expect(getToasts()).toMatchObject([
      { variant: "destructive", description: "The server said no." },
    ]);
  });
});
