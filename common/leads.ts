// The visitor forms' schemas, used by the forms (react-hook-form + zodResolver) and by
// the server that stores the leads. Messages and normalisation (trim, lower-case email) live here.
import "./zod-config.ts";
import { z } from "zod";
import { storableString } from "./storable-text.ts";

export const COMPANY_SIZES = ["1-10", "11-50", "51-200", "201-1000", "1000+"] as const;
export const DEPARTMENTS = [
  "Sales",
  "Marketing",
  "Customer Success",
  "Product",
  "Engineering",
  "Operations",
  "Other",
] as const;

export const companySizeLabel = (size: (typeof COMPANY_SIZES)[number]) => `${size} employees`;

const LIMITS = {
  name: 100,
  email: 254,
  phone: 40,
  company: 200,
  message: 5000,
  url: 2048,
} as const;

/** Said when a field is longer than its limit (the limit itself is accepted). */
const tooLong = (max: number) => `Please keep this to ${max} characters or fewer`;

const text = (max: number, required: string, min = 1, minMessage = required) =>
  storableString({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .min(min, { error: minMessage, abort: true })
    .max(max, tooLong(max));

/** An email field: trimmed, lower-cased, one message for every refusal. */
export const emailField = (message: string) =>
  storableString({ error: message })
    .trim()
    .toLowerCase()
    .max(LIMITS.email, message)
    .pipe(z.email({ error: message }));

const phone = (required: string) =>
  text(LIMITS.phone, required).regex(
    /^[+()\d\s.\-–/]*\d[+()\d\s.\-–/]*(\s*(ext\.?|x)\s*\d+)?$/i,
    "Please enter a valid phone number",
  );

/** Request Access dialog. */
export const requestAccessSchema = z.object({
  firstName: text(LIMITS.name, "First name must be at least 2 characters", 2),
  lastName: text(LIMITS.name, "Last name must be at least 2 characters", 2),
  email: emailField("Please enter a valid email address"),
  companyName: text(LIMITS.company, "Company name must be at least 2 characters", 2),
  companySize: z.enum(COMPANY_SIZES, { error: "Please select a company size" }),
  department: z.enum(DEPARTMENTS, { error: "Please select a department" }),
});

/** Contact form: every field required. */
export const contactSchema = z.object({
  name: text(LIMITS.name, "Please enter your name"),
  email: emailField("Please enter a valid email address"),
  phone: phone("Please enter your phone number"),
  message: text(LIMITS.message, "Please enter a message"),
});

/** Footer newsletter: checked with this one schema by the form and by the server. */
export const newsletterSchema = z.object({
  email: emailField("Please enter a valid email address."),
});

/**
 * The `details` of the sign-up's duplicate answer (409 23505) for an address still waiting for
 * its confirmation: sent again now, or not (one went within the hour); the footer tells which.
 * A subscribed address's answer carries the database's own details.
 */
export const NEWSLETTER_PENDING = {
  resent: "pending confirmation: the confirmation email was sent again",
  waiting: "pending confirmation: a confirmation email was sent within the hour",
} as const;

/** Request Demo page. */
export const requestDemoSchema = z.object({
  name: text(LIMITS.name, "Name is required"),
  email: emailField("Invalid email address"),
  phone: phone("Phone number is required"),
  company: text(LIMITS.company, "Company name is required"),
  position: text(LIMITS.name, "Position is required"),
  website: storableString().trim().max(LIMITS.url, tooLong(LIMITS.url)).optional().default(""),
});

/** Where a lead came from: the page, the referrer and the campaign, when the browser sent them. */
export const leadSourceSchema = z.object({
  page: storableString().max(LIMITS.url).optional(),
  referrer: storableString().max(LIMITS.url).optional(),
  utm_source: storableString().max(200).optional(),
  utm_medium: storableString().max(200).optional(),
  utm_campaign: storableString().max(200).optional(),
  utm_term: storableString().max(200).optional(),
  utm_content: storableString().max(200).optional(),
});

export type RequestAccessInput = z.input<typeof requestAccessSchema>;
export type RequestAccess = z.output<typeof requestAccessSchema>;
export type ContactInput = z.input<typeof contactSchema>;
export type Contact = z.output<typeof contactSchema>;
export type RequestDemoInput = z.input<typeof requestDemoSchema>;
export type RequestDemo = z.output<typeof requestDemoSchema>;
export type LeadSource = z.output<typeof leadSourceSchema>;

/** The honeypot: a field people never see or fill; bots that fill every field give themselves away. */
export const HONEYPOT_FIELD = "nickname";

/** What a lead form says when its captcha was not solved: the form before it sends, the server after. */
export const CAPTCHA_FAILED = "Please confirm you're not a robot before submitting.";
