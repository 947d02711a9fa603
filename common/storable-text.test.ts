// The one text rule, applied by every schema whose values reach the database.
import { describe, expect, it } from "vitest";
import { newPasswordSchema } from "./accounts.ts";
import { demoEmailSchema } from "./business-email.ts";
import {
  contactSchema,
  leadSourceSchema,
  newsletterSchema,
  requestAccessSchema,
  requestDemoSchema,
} from "./leads.ts";
import { isStorableJson, isStorableText, UNSTORABLE_TEXT_MESSAGE } from "./storable-text.ts";

const UNSTORABLE = ["a\u0000b", "a\ud83db", "a\ude00b", "\ude00\ud83d"];
const STORABLE = ["", "plain", "emoji 😀 ok", "\ud83d\ude00", "tab\tand\nnewline", "\u0001"];

describe("storable text", () => {
  it("refuses NUL and unpaired surrogates only", () => {
    for (const s of UNSTORABLE) expect(isStorableText(s), JSON.stringify(s)).toBe(false);
    for (const s of STORABLE) expect(isStorableText(s), JSON.stringify(s)).toBe(true);
    expect(isStorableJson({ a: [1, { b: "ok" }] })).toBe(true);
    expect(isStorableJson({ a: [1, { b: "a\u0000" }] })).toBe(false);
    expect(isStorableJson({ ["k\ud800"]: 1 })).toBe(false);
  });

  const valid = {
    requestAccessSchema: {
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@analytical.example",
      companyName: "Analytical",
      companySize: "51-200",
      department: "Sales",
    },
    contactSchema: { name: "Grace", email: "g@navy.example", phone: "206 555 0100", message: "Hi" },
    requestDemoSchema: {
      name: "Tom",
      email: "tom@lumen.example",
      phone: "206 555 0199",
      company: "Lumen",
      position: "VP",
      website: "https://lumen.example",
    },
    newsletterSchema: { email: "reader@example.com" },
    demoEmailSchema: { email: "buyer@company.example" },
    leadSourceSchema: { page: "/", referrer: "https://r.example/", utm_source: "x" },
    newPasswordSchema: { password: "Correct-Horse-42", confirm: "Correct-Horse-42" },
  };
  const schemas = {
    requestAccessSchema,
    contactSchema,
    requestDemoSchema,
    newsletterSchema,
    demoEmailSchema,
    leadSourceSchema,
    newPasswordSchema,
  };

  it("is the first check of every text field of every form schema, with one message", () => {
    for (const [name, schema] of Object.entries(schemas)) {
      const base = valid[name as keyof typeof valid] as Record<string, string>;
      expect(schema.safeParse(base).success, name).toBe(true);
      const textFields = Object.keys(base).filter(
        (k) => !["companySize", "department", "confirm"].includes(k),
      );
      for (const field of textFields) {
        for (const bad of UNSTORABLE) {
          const value = field === "email" ? `${bad}@example.com` : `${base[field]} ${bad}`;
          const result = schema.safeParse({ ...base, [field]: value });
          expect(result.success, `${name}.${field}`).toBe(false);
          expect(
            result.error!.issues.find((i) => i.path[0] === field)?.message,
            `${name}.${field}`,
          ).toBe(UNSTORABLE_TEXT_MESSAGE);
        }
      }
    }
  });
});
