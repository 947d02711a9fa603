import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "./frontmatter.ts";

describe("frontmatter", () => {
  it("reads flat key: value lines, quoted or not, and returns the body", () => {
    const { data, body } = parseFrontmatter(
      "---\ntitle: \"Where \\\"AI\\\" fails\"\ndate: 2025-03-18\n# a comment\nauthor: 'it''s me'\n---\n## Body\n",
    );
    expect(data).toEqual({ title: 'Where "AI" fails', date: "2025-03-18", author: "it's me" });
    expect(body).toBe("## Body\n");
  });
  it("refuses files without frontmatter or with malformed lines", () => {
    expect(() => parseFrontmatter("# no frontmatter")).toThrow(/missing frontmatter/);
    expect(() => parseFrontmatter("---\nnot a pair\n---\n")).toThrow(/line 1/);
  });
});
