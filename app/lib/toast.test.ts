import { afterEach, describe, expect, it, vi } from "vitest";
import { dismissToast, getToasts, removeToast, toast, TOAST_LIMIT, updateToast } from "./toast.ts";

describe("toast store", () => {
  afterEach(() => removeToast());

  it("keeps at most 5 toasts, newest first", () => {
    for (let i = 1; i <= 7; i++) toast({ title: `Toast ${i}` });
    expect(TOAST_LIMIT).toBe(5);
    expect(getToasts().map((t) => t.title)).toEqual([
      "Toast 7",
      "Toast 6",
      "Toast 5",
      "Toast 4",
      "Toast 3",
    ]);
  });

  it("updates, dismisses (open = false) and removes a toast", () => {
    vi.useFakeTimers();
    const t = toast({ title: "Saving", variant: "default" });
    updateToast(t.id, { title: "Saved" });
    expect(getToasts()[0]).toMatchObject({ title: "Saved", open: true });
    dismissToast(t.id);
    expect(getToasts()[0]).toMatchObject({ open: false });
    const later = toast({ title: "Arrived meanwhile" });
    vi.advanceTimersByTime(1000);
    expect(getToasts().map((x) => x.id)).toEqual([later.id]);
    vi.useRealTimers();
  });
});
