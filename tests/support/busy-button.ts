// For the unit tests (happy-dom) of a button that runs a request (lib/use-busy-action.ts): the page
// on an origin where nothing listens (port 9), carrying the anon key the server would write in, so
// the real supabase-js meets a connection that fails, as a browser offline does; the requests it
// sent; and the presses of the button while it is busy.
import { act, fireEvent, waitFor } from "@testing-library/react";
import { expect, vi } from "vitest";
import { getToasts } from "../../app/lib/toast.ts";

export function pageWithoutServer(): {
  /** How many requests went to this path (e.g. "/auth/v1/logout"). */
  requestsTo: (path: string) => number;
  /** Puts the page back: no key, fetch no longer watched. */
  restore: () => void;
} {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    "http://127.0.0.1:9/",
  );
  const meta = document.createElement("meta");
  meta.name = "revwise-anon-key";
  meta.content = "anon";
  document.head.append(meta);
  const fetchSpy = vi.spyOn(globalThis, "fetch");
  return {
    requestsTo: (path) =>
      fetchSpy.mock.calls.filter(
        ([input]) =>
          new URL(input instanceof Request ? input.url : input, window.location.href).pathname ===
          path,
      ).length,
    restore: () => {
      meta.remove();
      fetchSpy.mockRestore();
    },
  };
}

/**
 * Presses the focused button twice, the second time while the first press runs: it is busy
 * (aria-disabled) and keeps the focus meanwhile; once the action has failed, the error toast says
 * `failure` and the button, still focused, is no longer busy.
 */
export async function pressTwiceUntilFailed(button: HTMLElement, failure: string): Promise<void> {
  button.focus();
  act(() => fireEvent.click(button));
  expect(button.getAttribute("aria-disabled")).toBe("true");
  act(() => fireEvent.click(button));
  expect(document.activeElement).toBe(button);

  await waitFor(() =>
    expect(getToasts()).toMatchObject([
      { variant: "destructive", title: "Error", description: failure },
    ]),
  );
  await waitFor(() => expect(button.getAttribute("aria-disabled")).toBe("false"));
  expect(document.activeElement).toBe(button);
}
