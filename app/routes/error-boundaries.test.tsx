// When rendering fails, the home page shows "Error loading homepage" and the application
// "Error loading application".
import { render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { ErrorBoundary as RootErrorBoundary } from "../root.tsx";
import { ErrorBoundary as HomeErrorBoundary } from "./home.tsx";

function Broken(): never {
  throw new Error("render failed");
}

describe("render failures", () => {
  it("shows 'Error loading homepage' when the home page fails", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const Stub = createRoutesStub([
      { path: "/", Component: Broken, ErrorBoundary: HomeErrorBoundary },
    ]);
    render(<Stub initialEntries={["/"]} />);
    expect(await screen.findByText("Error loading homepage")).toBeTruthy();
  });

  it("shows 'Error loading application' when any other page fails", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const Stub = createRoutesStub([
      { path: "/faq", Component: Broken, ErrorBoundary: RootErrorBoundary as never },
    ]);
    render(<Stub initialEntries={["/faq"]} />);
    expect(await screen.findByText("Error loading application")).toBeTruthy();
  });
});
