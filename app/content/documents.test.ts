import { describe, expect, it, vi } from "vitest";
import { loadDocument } from "./documents.ts";
import type * as Site from "./site.ts";

// A site built with its own contact details (VITE_CONTACT_EMAIL, VITE_CONTACT_PHONE).
vi.mock("./site.ts", async (original) => {
  const site = await original<typeof Site>();
  return {
    ...site,
    contact: { ...site.contact, email: "team@example.org", phone: "+1 (555) 010-0199" },
  };
});

const DOCUMENTS = [
  "legal/privacy-policy",
  "legal/cookies-policy",
  "legal/terms-of-service",
  "docs/documentation",
] as const;

describe("legal pages and documentation", () => {
  it("give the site's contact details as configured, and link no other address", () => {
    for (const name of DOCUMENTS) {
      const { html } = loadDocument(name);
      expect(html, name).toContain("team@example.org");
      expect(html, name).not.toContain("hello@revwise.example");
      expect(html, name).not.toContain("206) 555-0142");
      for (const [, href] of html.matchAll(/href="(mailto:[^"]*)"/g))
        expect(href, name).toBe("mailto:team@example.org");
    }
    expect(loadDocument("legal/privacy-policy").html).toContain("+1 (555) 010-0199");
  });
});
