import { describe, expect, it } from "vitest";
import {
  contactSchema,
  newsletterSchema,
  requestAccessSchema,
  requestDemoSchema,
} from "./leads.ts";
import { demoEmailSchema, isFreeMailAddress, SPEC_FREE_MAIL_DOMAINS } from "./business-email.ts";
import { REQUEST_ACCESS_MESSAGES, REQUEST_DEMO_MESSAGES } from "../tests/support/leads.ts";

/** Every field's issues; a field must report exactly one (the one its form shows). */
const messages = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0]);
    if (field in out)
      throw new Error(`${field} reports several issues: ${out[field]} / ${issue.message}`);
    out[field] = issue.message;
  }
  return out;
};

describe("request access schema", () => {
  it("gives every field its own message", () => {
    const result = requestAccessSchema.safeParse({
      firstName: "A",
      lastName: "B",
      email: "nope",
      companyName: "C",
      companySize: "",
      department: "",
    });
    expect(messages(result)).toEqual(REQUEST_ACCESS_MESSAGES);
  });

  it("trims, lower-cases the email and accepts the enumerations", () => {
    const ok = requestAccessSchema.parse({
      firstName: "  Ada ",
      lastName: "Lovelace",
      email: " Ada@Example.COM ",
      companyName: "Analytical Engines",
      companySize: "1000+",
      department: "Customer Success",
    });
    expect(ok).toMatchObject({ firstName: "Ada", email: "ada@example.com", companySize: "1000+" });
  });

  it("refuses wrong types and values outside the enumerations", () => {
    expect(requestAccessSchema.safeParse({ firstName: 42 }).success).toBe(false);
    const r = requestAccessSchema.safeParse({
      firstName: "Ada",
      lastName: "Love",
      email: "a@b.co",
      companyName: "AE",
      companySize: "5000+",
      department: "Legal",
    });
    expect(messages(r)).toEqual({
      companySize: "Please select a company size",
      department: "Please select a department",
    });
  });
});

const REQUEST_ACCESS = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  companyName: "Analytical Engines",
  companySize: "51-200",
  department: "Sales",
};

describe("contact schema (all required)", () => {
  it("requires every field", () => {
    expect(
      Object.keys(
        messages(contactSchema.safeParse({ name: "", email: "", phone: "", message: " " })),
      ),
    ).toEqual(["name", "email", "phone", "message"]);
  });
  it("accepts real phone numbers and refuses letters", () => {
    for (const phone of [
      "+1 (206) 555-0142",
      "206.555.0142",
      "+44 20 7946 0958",
      "555-0142 ext. 12",
    ]) {
      expect(
        contactSchema.safeParse({ name: "N", email: "n@x.io", phone, message: "hi" }).success,
        phone,
      ).toBe(true);
    }
    expect(
      messages(
        contactSchema.safeParse({ name: "N", email: "n@x.io", phone: "call me", message: "hi" }),
      ),
    ).toEqual({ phone: "Please enter a valid phone number" });
  });
  it("bounds the message length", () => {
    expect(
      contactSchema.safeParse({
        name: "N",
        email: "n@x.io",
        phone: "555 0142",
        message: "x".repeat(5001),
      }).success,
    ).toBe(false);
  });
});

describe("newsletter", () => {
  it("refuses what the form refuses: no '@', no domain with a dot, an empty field", () => {
    for (const email of ["", " ", "no-at-sign", "a@b", "two@@example.com"])
      expect(messages(newsletterSchema.safeParse({ email })), email).toEqual({
        email: "Please enter a valid email address.",
      });
  });
  it("normalises the stored address", () => {
    expect(newsletterSchema.parse({ email: " Me@Example.com" })).toEqual({
      email: "me@example.com",
    });
  });
});

describe("demo dialog schema", () => {
  it("requires an email, with the form's message", () => {
    expect(messages(demoEmailSchema.safeParse({ email: "" }))).toEqual({
      email: "Please enter your email address",
    });
  });
  it.each([
    ...SPEC_FREE_MAIL_DOMAINS,
    "googlemail.com",
    "gmx.de",
    "live.com",
    "web.de",
    "yandex.ru",
  ])("refuses %s (the spec's eight and the maintained list), whatever its case", (domain) => {
    expect(
      messages(demoEmailSchema.safeParse({ email: `someone@${domain.toUpperCase()}` })),
    ).toEqual({ email: "Please use your business email address" });
    expect(isFreeMailAddress(`x@${domain}`)).toBe(true);
  });
  it("accepts business addresses", () => {
    expect(demoEmailSchema.parse({ email: "Rachel@Northwind-Analytics.com" })).toEqual({
      email: "rachel@northwind-analytics.com",
    });
    expect(isFreeMailAddress("x@gmail.com.evil.io")).toBe(false);
    // A company's own mail under a provider's name is the company's.
    expect(isFreeMailAddress("x@sales.gmx.de")).toBe(false);
  });
});

describe("length limits", () => {
  const contact = { name: "N", email: "n@x.io", phone: "555 0142", message: "hi" };
  const demo = { name: "N", email: "n@x.io", phone: "555 0142", company: "C", position: "VP" };

  it("accept a field exactly at its limit", () => {
    expect(contactSchema.safeParse({ ...contact, name: "x".repeat(100) }).success).toBe(true);
    expect(contactSchema.safeParse({ ...contact, message: "x".repeat(5000) }).success).toBe(true);
    expect(
      requestDemoSchema.safeParse({ ...demo, website: `https://${"x".repeat(2040)}` }).success,
    ).toBe(true);
  });

  it("say the limit as it is applied, one character past it", () => {
    expect(messages(contactSchema.safeParse({ ...contact, name: "x".repeat(101) }))).toEqual({
      name: "Please keep this to 100 characters or fewer",
    });
    expect(messages(contactSchema.safeParse({ ...contact, phone: "5".repeat(41) }))).toEqual({
      phone: "Please keep this to 40 characters or fewer",
    });
    expect(
      messages(requestAccessSchema.safeParse({ ...REQUEST_ACCESS, companyName: "x".repeat(201) })),
    ).toEqual({ companyName: "Please keep this to 200 characters or fewer" });
    expect(
      messages(requestDemoSchema.safeParse({ ...demo, website: `https://${"x".repeat(2041)}` })),
    ).toEqual({ website: "Please keep this to 2048 characters or fewer" });
  });
});

describe("request demo page schema", () => {
  it("gives each field its own message and leaves the website optional", () => {
    expect(
      messages(
        requestDemoSchema.safeParse({ name: "", email: "x", phone: "", company: "", position: "" }),
      ),
    ).toEqual(REQUEST_DEMO_MESSAGES);
    expect(
      requestDemoSchema.parse({
        name: "N",
        email: "n@x.io",
        phone: "555 0142",
        company: "C",
        position: "VP",
      }).website,
    ).toBe("");
  });
});
