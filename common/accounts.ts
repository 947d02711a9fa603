// Account forms' schemas (the server applies the full password policy on top).
import "./zod-config.ts";
import { z } from "zod";
import { storableString } from "./storable-text.ts";

export const MIN_PASSWORD_LENGTH = 8;

const newPasswordShape = {
  // Counted in UTF-8 bytes, as the server (and GoTrue) counts it.
  password: storableString().refine(
    (p) => new TextEncoder().encode(p).length >= MIN_PASSWORD_LENGTH,
    `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`,
  ),
  confirm: z.string(),
};
const bothTyped = { path: ["confirm"], message: "The two passwords do not match." };

export const newPasswordSchema = z
  .object(newPasswordShape)
  .refine((v) => v.password === v.confirm, bothTyped);

/**
 * The account page's password change: the current password too, empty for an account that has
 * none (the server then asks for an emailed code).
 */
export const passwordChangeSchema = z
  .object({ current: z.string(), ...newPasswordShape })
  .refine((v) => v.password === v.confirm, bothTyped);

/**
 * The person's name lives in the user's `user_metadata` under this key (Supabase's dashboard and
 * its OAuth providers use `full_name` too).
 */
export const NAME_METADATA_KEY = "full_name";

export const profileNameSchema = z.object({
  name: storableString()
    .trim()
    .min(1, "Enter your name.")
    .max(100, "Keep your name to 100 characters or fewer."),
});

export const emailChangeSchema = z.object({
  email: z.email("Enter a valid email address.").trim().toLowerCase(),
});

/** The code an authenticator app (or a reauthentication email) shows: six digits. */
/** "Delete account" with the current password (the other way is an emailed code). */
export const deletionPasswordSchema = z.object({
  current: z.string().min(1, "Enter your current password, or ask for a code by email."),
});

export const sixDigitCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code."),
});

/**
 * A recovery code, as typed from the saved list ("k7m2p-x9d4q"): ten letters and digits; case,
 * spaces and the dash do not count, as the server reads it.
 */
export const recoveryCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .refine(
      (code) => /^[a-z0-9]{10}$/i.test(code.replace(/[\s-]/g, "")),
      "Enter a recovery code: 10 letters and digits, like k7m2p-x9d4q.",
    ),
});

/** One of the caller's sessions, as `GET /functions/v1/sessions` lists them. */
export type AccountSession = {
  id: string;
  /** The session of the access token that asked. */
  current: boolean;
  aal: string;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  updated_at: string;
  refreshed_at: string | null;
};

/**
 * The site's page an account email's link opens (`?token_hash=…&type=…&redirect_to=…`): it does
 * nothing until its reader presses its button, which uses the link (supabase-js `verifyOtp`), so a
 * mail scanner that opens the link uses nothing.
 */
export const EMAIL_LINK_PAGE = "/auth/confirm";
