import { describe, expect, it } from "vitest";
import { z } from "zod";
import { allPosts, postSummaries } from "./blog-posts.ts";
import { renderMarkdown } from "./markdown.ts";

describe("blog posts (files with validated frontmatter)", () => {
  it("has the four articles, categories and dates, newest first", () => {
    const posts = postSummaries().map((p) => [p.slug, p.category, p.date]);
    expect(posts).toEqual([
      ["ten-ways-sellers", "Sales", "2025-06-24"],
      ["gen-ai-sales", "Technology", "2025-03-25"],
      ["ai-sales", "Technology", "2025-03-18"],
      ["revwise-manifesto", "Company", "2025-03-10"],
    ]);
  });

  it("gives every article a full body, an author and an image", () => {
    for (const post of allPosts()) {
      expect(post.html.length, post.slug).toBeGreaterThan(4000);
      expect(post.author.name, post.slug).toBeTruthy();
      expect(post.image, post.slug).toMatch(/\.svg$|^data:image\/svg\+xml/); // Vitest inlines small assets
      expect(post.html, post.slug).not.toMatch(/lorem ipsum|coming soon/i);
    }
  });

  it("fails the build on invalid frontmatter, naming the file", () => {
    const schema = z.object({ author: z.enum(["daniel-okafor"]) });
    expect(() =>
      renderMarkdown("content/blog/x.md", "---\nauthor: nobody\n---\nBody", schema),
    ).toThrow(/content\/blog\/x\.md/);
  });
});
