// The forms that take business addresses only (the "Watch Demo" dialog) refuse free-mail
// providers by this one rule, in the site's form and on the server alike: the spec's eight and the
// `email-providers` package's list (about 8,700 domains of free and consumer mail services, kept
// up to date by its releases), compared in any case. A subdomain of a listed domain is not
// refused: companies host their own mail under such names. The list is its own module so that
// only the dialog that needs it loads it in the browser.
import "./zod-config.ts";
import providers from "email-providers/all.json" with { type: "json" };
import { z } from "zod";
import { emailField } from "./leads.ts";
import { storableString } from "./storable-text.ts";

/** The free-mail providers the spec names: refused whatever the package's list says. */
export const SPEC_FREE_MAIL_DOMAINS = [
  "gmail.com",
  "yahoo.com",
  "hotmail.com",
  "outlook.com",
  "aol.com",
  "icloud.com",
  "mail.com",
  "protonmail.com",
] as const;

const FREE_MAIL = new Set<string>([...SPEC_FREE_MAIL_DOMAINS, ...providers]);

export function isFreeMailAddress(email: string): boolean {
  const domain = email.trim().split("@").pop()?.toLowerCase().replace(/\.$/, "") ?? "";
  return FREE_MAIL.has(domain);
}

const demoEmail = storableString({ error: "Please enter your email address" })
  .trim()
  .min(1, { error: "Please enter your email address", abort: true })
  .toLowerCase()
  .pipe(emailField("Please enter a valid email address"));

/** "Watch Demo" dialog (a business address). */
export const demoEmailSchema = z.object({
  email: demoEmail.refine(
    (value) => !isFreeMailAddress(value),
    "Please use your business email address",
  ),
});
