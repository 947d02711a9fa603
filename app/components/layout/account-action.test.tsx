// The header's Logout, with the real supabase-js and a server that cannot be reached: busy while
// it runs, so a second press does nothing (one logout request) and the focus stays on it; its
// failure said in the error toast.
import { render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pageWithoutServer, pressTwiceUntilFailed } from "../../../tests/support/busy-button.ts";
import { sessionLocalStorageKey } from "../../lib/account-signals.ts";
import { removeToast } from "../../lib/toast.ts";
import { AccountAction } from "./account-action.tsx";

describe("AccountAction's Logout", () => {
  let page: ReturnType<typeof pageWithoutServer>;
  beforeEach(() => {
    page = pageWithoutServer();
    // A session as supabase-js stores it, valid for an hour (nothing to refresh before Logout).
    const now = Math.floor(Date.now() / 1000);
    localStorage.setItem(
      sessionLocalStorageKey(),
      JSON.stringify({
        access_token: "header.payload.signature",
        refresh_token: "refresh",
        token_type: "bearer",
        expires_in: 3600,
        expires_at: now + 3600,
        user: { id: "00000000-0000-4000-8000-000000000001", aud: "authenticated", role: "" },
      }),
    );
  });
  afterEach(() => {
    removeToast();
    localStorage.clear();
    page.restore();
  });

  it("is busy until it is done: a second press sends nothing more, a failure is the error toast", async () => {
    render(<AccountAction />);
    await pressTwiceUntilFailed(
      screen.getByRole("button", { name: "Logout" }),
      "Failed to log out",
    );
    expect(page.requestsTo("/auth/v1/logout")).toBe(1);
  });
});
