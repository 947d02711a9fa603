// The per-day chart: a round scale above the largest value, one bar of views per day at its
// height, the leads' line, and a name and description for screen readers.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DayChart, niceMax } from "./day-chart.tsx";

describe("niceMax", () => {
  it.each([
    [0, 1],
    [1, 1],
    [3, 5],
    [7, 10],
    [140, 200],
    [2000, 2000],
    [2001, 5000],
  ])("tops %d at %d", (value, top) => {
    expect(niceMax(value)).toBe(top);
  });
});

describe("DayChart", () => {
  const days = [
    { day: "2026-11-01", views: 100, leads: 2 },
    { day: "2026-11-02", views: 50, leads: 0 },
    { day: "2026-11-03", views: 0, leads: 1 },
  ];

  it("draws a bar per day, as tall as its views on the scale, and the leads' line", () => {
    const { container } = render(<DayChart days={days} descriptionId="d" />);
    const svg = screen.getByRole("img", { name: "Views and leads per day" });
    expect(svg.getAttribute("aria-describedby")).toBe("d");
    const heights = [...container.querySelectorAll("rect")].map((r) =>
      Number(r.getAttribute("height")),
    );
    expect(heights).toHaveLength(3);
    // The scale tops at 100: the first bar fills it, the second is half, the third is empty.
    expect(heights[1]! / heights[0]!).toBeCloseTo(0.5);
    expect(heights[2]).toBe(0);
    expect(container.querySelector("path")?.getAttribute("d")).toMatch(
      /^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+){2}$/,
    );
  });
});
