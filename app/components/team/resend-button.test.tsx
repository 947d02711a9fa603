// "Resend", with the real supabase-js and a server that cannot be reached: busy while it runs, so
// a second press sends nothing more and the focus stays on it; the failure is the error toast, and
// the list is not told the row changed.
import { render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pageWithoutServer, pressTwiceUntilFailed } from "../../../tests/support/busy-button.ts";
import { CONNECTION_FAILED } from "../../lib/errors.ts";
import { removeToast } from "../../lib/toast.ts";
import { ResendButton } from "./resend-button.tsx";

describe("ResendButton", () => {
  let page: ReturnType<typeof pageWithoutServer>;
  beforeEach(() => {
    page = pageWithoutServer();
  });
  afterEach(() => {
    removeToast();
    page.restore();
  });

  it("is busy until it is done: a second press sends nothing more, a failure is the error toast", async () => {
    const onDone = vi.fn();
    render(
      <ResendButton
        rpc="resend_email"
        args={{ email_id: "00000000-0000-4000-8000-000000000001" }}
        label="Resend Welcome to a@example.com"
        queued={{ title: "Email queued again", description: "To a@example.com." }}
        refused="That email is no longer failed: it was not sent again."
        onDone={onDone}
      />,
    );
    await pressTwiceUntilFailed(
      screen.getByRole("button", { name: "Resend Welcome to a@example.com" }),
      CONNECTION_FAILED,
    );
    expect(page.requestsTo("/rest/v1/rpc/resend_email")).toBe(1);
    expect(onDone).not.toHaveBeenCalled();
  });
});
