import { describe, expect, it } from "vitest";
import { formatDate, formatLongDate } from "./dates.ts";

describe("dates", () => {
  it("writes short and long dates, independent of the machine's time zone", () => {
    expect(formatDate("2025-03-18")).toBe("Mar 18, 2025");
    expect(formatDate("2025-06-24")).toBe("Jun 24, 2025");
    expect(formatLongDate("2025-04-28")).toBe("April 28, 2025");
  });
});
