// A request target's path and query, split once for every module that reads either.
import { expect, it } from "vitest";
import { pathOf, splitTarget } from "./request-target.ts";

it.each([
  ["/rest/v1/leads?select=id", "/rest/v1/leads", "select=id"],
  ["/rest/v1/leads", "/rest/v1/leads", undefined],
  ["/faq/?", "/faq/", ""],
  ["/a?b?c", "/a", "b?c"],
  ["/%E2%9C%93?x=%3F", "/%E2%9C%93", "x=%3F"],
])("splits %s at its first question mark, as sent", (url, path, query) => {
  expect(splitTarget(url)).toEqual({ path, query });
  expect(pathOf({ url })).toBe(path);
});
