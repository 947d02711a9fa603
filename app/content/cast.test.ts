// The site's fictional cast stays consistent: customers (logos, testimonials), the prospects in
// the product mock-ups and the people on every page are distinct, each person belongs to one
// company, and no link points at a made-up profile on a real site.
import { describe, expect, it } from "vitest";
import { customerLogos } from "./logos.ts";
import { advisors, team } from "./people.ts";
import { assistantProducts, overviewContacts, showcaseProducts } from "./products.ts";
import { testimonials } from "./testimonials.ts";
import { tourSteps } from "./tour.ts";

/** Prospects shown in the mock-ups, with the buyers who appear for them. */
const prospects: Record<string, string[]> = {
  "Tidewater Analytics": ["Grace Liu", "Tom Alvarez", "Omar Haddad"],
  "Cobalt Freight": ["Diego Ramos", "Hannah Novak"],
  "Meadowvale Health": ["Leah Morgan", "Victor Osei", "Nina Okoro", "Lena Ortiz"],
  "Pallas Robotics": ["Marta Nowak", "Dana Whitaker"],
  "Sorrel Foods": ["Tom Ashby"],
  "Larkspur Capital": ["Priscilla Nguyen"],
  "Juno Retail": [],
  "Kite Labs": [],
  "Harbor Bank": [],
  "Apex Dental": [],
  "Vela Media": [],
  "Halcyon Cloud": [],
};
/** The selling team in the mock-ups (a Revwise customer's reps, never named as customers). */
const sellers = ["Sam Patel", "Maya Chen", "Jordan Lee", "Ava Brooks", "Ben Carter"];

/** The mock-up screens: hero, feature, product and autopilot SVGs, as text. */
const mockupFiles = import.meta.glob<string>("../assets/{hero,features,product,autopilot}/*.svg", {
  query: "?raw",
  import: "default",
  eager: true,
});

/** The visible text of an SVG mock-up (its <title> and <text> content, without the styles). */
function svgText(svg: string): string {
  return [...svg.replace(/<style>[\s\S]*?<\/style>/g, "").matchAll(/>([^<]+)</g)]
    .map((m) => m[1])
    .join(" ")
    .replace(/&amp;/g, "&");
}

const mockups: { name: string; text: string }[] = [
  ...Object.entries(mockupFiles).map(([name, svg]) => ({ name, text: svgText(svg) })),
  ...showcaseProducts.map((p) => ({ name: p.page.path, text: JSON.stringify(p.slides) })),
  ...assistantProducts.map((p) => ({ name: p.page.path, text: JSON.stringify(p.chat) })),
  { name: "product overview contacts", text: JSON.stringify(overviewContacts) },
  { name: "product tour", text: JSON.stringify(tourSteps) },
];

const customers = customerLogos.map((l) => l.name);
const buyers = Object.values(prospects).flat();
const people = [...testimonials, ...team, ...advisors].map((p) => p.name);

describe("the fictional cast", () => {
  it("quotes only customers whose logos we show", () => {
    expect(customers).toHaveLength(8);
    for (const t of testimonials) expect(customers, t.name).toContain(t.company);
  });

  it("never shows a customer as a deal or prospect in a mock-up", () => {
    expect(mockups.length).toBeGreaterThan(20);
    for (const prospect of Object.keys(prospects))
      expect(
        mockups.some((m) => m.text.includes(prospect)),
        prospect,
      ).toBe(true);
    for (const { name, text } of mockups)
      for (const customer of customers)
        expect(text, `${customer} in ${name}`).not.toContain(customer);
    for (const prospect of Object.keys(prospects))
      expect(customers.join(" "), prospect).not.toContain(prospect.split(" ")[0]);
  });

  it("keeps testimonial people, the team and the advisors out of the mock-ups", () => {
    for (const { name, text } of mockups)
      for (const person of people) expect(text, `${person} in ${name}`).not.toContain(person);
  });

  it("gives every person one name, one company and one role", () => {
    const everyone = [...people, ...buyers, ...sellers];
    expect(new Set(everyone).size).toBe(everyone.length);
    const firstAndLast = everyone.flatMap((n) => n.split(" "));
    // A first or last name is shared by at most two people, so no one reads as someone else.
    for (const part of new Set(firstAndLast))
      expect(firstAndLast.filter((p) => p === part).length, part).toBeLessThanOrEqual(2);
  });

  it("shows each buyer only beside their own company", () => {
    for (const { name, text } of mockups) {
      for (const [company, contacts] of Object.entries(prospects)) {
        for (const contact of contacts) {
          if (!text.includes(contact)) continue;
          const companyShown = Object.entries(prospects).filter(
            ([c, cs]) => cs.includes(contact) && text.includes(c),
          );
          expect(
            companyShown.map(([c]) => c),
            `${contact} in ${name}`,
          ).toEqual([company]);
        }
      }
    }
    for (const contact of overviewContacts)
      expect(prospects[contact.company], contact.name).toContain(contact.name);
  });
});

describe("links to people", () => {
  it("points at no made-up profile on LinkedIn", () => {
    for (const person of [...team, ...advisors])
      expect(person.linkedin, person.name).toBeUndefined();
    const files = import.meta.glob<string>(["./**/*.{ts,md}", "!./**/*.test.ts"], {
      query: "?raw",
      import: "default",
      eager: true,
    });
    expect(Object.keys(files).length).toBeGreaterThan(20);
    for (const [file, text] of Object.entries(files))
      expect(text, file).not.toMatch(/linkedin\.com/i);
  });
});
