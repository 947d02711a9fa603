import { describe, expect, it } from "vitest";
import {
  conversionRate,
  lastDays,
  nextDay,
  NO_LEAD_FILTERS,
  pageRange,
  rangeLabel,
  countOf,
  searchPattern,
  totalsByDay,
  totalsByPath,
} from "./team-data.ts";
import { hashOf, placeOf } from "./team.ts";

describe("searchPattern", () => {
  it("looks for the trimmed text anywhere in the lead's search text", () => {
    expect(searchPattern("  lind ")).toBe("*lind*");
    expect(searchPattern("a,b (c)")).toBe("*a,b (c)*");
    expect(searchPattern("   ")).toBeNull();
  });

  it("keeps PostgREST's wildcard out and LIKE's wildcards literal", () => {
    expect(searchPattern("a*b")).toBe("*a_b*");
    expect(searchPattern("50%_off\\")).toBe("*50\\%\\_off\\\\*");
  });
});

describe("paging", () => {
  it("asks for 50 rows a page and says which ones show", () => {
    expect(pageRange(0)).toEqual([0, 49]);
    expect(pageRange(2)).toEqual([100, 149]);
    expect(rangeLabel(0, 50, 123)).toBe("1–50 of 123");
    expect(rangeLabel(2, 23, 123)).toBe("101–123 of 123");
    expect(rangeLabel(0, 0, 0)).toBe("0 of 0");
    expect(rangeLabel(3, 50, 1_234_567, true)).toBe("151–200 of about 1,234,567");
  });

  it("names one thing in the singular", () => {
    const leads = ["lead", "leads"] as const;
    expect(rangeLabel(0, 1, 1, false, leads)).toBe("1–1 of 1 lead");
    expect(rangeLabel(0, 2, 2, false, leads)).toBe("1–2 of 2 leads");
    expect(rangeLabel(0, 0, 0, false, leads)).toBe("0 of 0 leads");
    expect(countOf(1, ["page", "pages"])).toBe("1 page");
    expect(countOf(1234, ["page", "pages"])).toBe("1,234 pages");
  });
});

describe("days", () => {
  it("steps over month and year ends, and counts a range back from today", () => {
    expect(nextDay("2026-02-28")).toBe("2026-03-01");
    expect(nextDay("2026-12-31")).toBe("2027-01-01");
    expect(lastDays(30, new Date("2026-11-26T03:00:00Z"))).toEqual({
      from: "2026-10-28",
      to: "2026-11-26",
    });
  });
});

describe("analytics sums", () => {
  const rows = [
    { day: "2026-11-01", path: "/", views: 10, visitors: 8, leads: 1, converted: 1 },
    { day: "2026-11-02", path: "/", views: 5, visitors: 4, leads: 0, converted: 0 },
    { day: "2026-11-02", path: "/contact", views: 20, visitors: 12, leads: 3, converted: 2 },
  ];

  it("sums each page over the range, most viewed first; leads without a page count together", () => {
    expect(
      totalsByPath([
        ...rows,
        { day: "2026-11-01", path: null, views: 0, visitors: 0, leads: 2, converted: 0 },
        { day: "2026-11-02", path: null, views: 0, visitors: 0, leads: 1, converted: 0 },
      ]),
    ).toEqual([
      { path: "/contact", views: 20, visitors: 12, leads: 3, converted: 2 },
      { path: "/", views: 15, visitors: 12, leads: 1, converted: 1 },
      { path: "", views: 0, visitors: 0, leads: 3, converted: 0 },
    ]);
  });

  it("gives every day of the range, empty ones as zero", () => {
    expect(totalsByDay(rows, "2026-11-01", "2026-11-03")).toEqual([
      { day: "2026-11-01", views: 10, leads: 1 },
      { day: "2026-11-02", views: 25, leads: 3 },
      { day: "2026-11-03", views: 0, leads: 0 },
    ]);
  });

  it("says the conversion rate per visitor, and nothing without visitors", () => {
    expect(conversionRate(3, 12)).toBe("25.0 %");
    expect(conversionRate(0, 0)).toBe("–");
  });
});

describe("the workspace's place in the URL", () => {
  it("reads a tab and a lead's detail, and falls back to the inbox", () => {
    expect(placeOf("#emails")).toEqual({ tab: "emails" });
    expect(placeOf("#inbox/lead/abc")).toEqual({ tab: "inbox", lead: "abc" });
    expect(placeOf("#emails/lead/abc")).toEqual({ tab: "emails" });
    expect(placeOf("")).toEqual({ tab: "inbox" });
    expect(placeOf("#nonsense")).toEqual({ tab: "inbox" });
    expect(hashOf({ tab: "inbox", lead: "abc" })).toBe("#inbox/lead/abc");
  });

  it("keeps the inbox's filters, with a lead open too, and drops values the inbox does not offer", () => {
    const filters = { ...NO_LEAD_FILTERS, kind: "contact", from: "2026-11-01", q: "harbor & co" };
    const hash = hashOf({ tab: "inbox", lead: "abc", filters });
    expect(hash).toBe("#inbox/lead/abc?kind=contact&from=2026-11-01&q=harbor+%26+co");
    expect(placeOf(hash)).toEqual({ tab: "inbox", lead: "abc", filters });
    expect(hashOf({ tab: "inbox", filters: NO_LEAD_FILTERS })).toBe("#inbox");
    expect(placeOf("#inbox?kind=nope&status=new&to=yesterday&owner=me")).toEqual({
      tab: "inbox",
      filters: { ...NO_LEAD_FILTERS, status: "new" },
    });
    // A member's leads ("my leads" is the member's own id); junk is found by its status.
    const owner = "0190b6c4-1e2f-7a3b-8c4d-5e6f7a8b9c0d";
    expect(placeOf(`#inbox?status=junk&owner=${owner}`)).toEqual({
      tab: "inbox",
      filters: { ...NO_LEAD_FILTERS, status: "junk", owner },
    });
    expect(placeOf("#emails?kind=contact")).toEqual({ tab: "emails" });
  });
});
