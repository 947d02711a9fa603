// The sign-in page's words: the page's frame, and each view of its panel (the password form, the
// password recovery, the step that takes each account email's code, the authenticator app's code
// step, who is signed in), with the toasts that follow each request.

import type { SignInProvider } from "../../common/site-build.ts";
import type { AddressLine } from "./types.ts";

/** A toast's words. */
type Notice = { title: string; description: string };

/** The emails the page sends whose code it then takes. */
export type SentEmail = "signInLink" | "confirmation" | "recovery";

/** The step that takes an email's code: its heading, where the email went, its button. */
type EmailCodeStepCopy = { title: string; sentTo: AddressLine; submitLabel: string };

export const signInPage = {
  title: "Sign in to your account",
  subtitle: "Enter your credentials below",
  /** The page's heading for someone already signed in (the panel says who). */
  signedIn: {
    title: "Your account",
    subtitle: "Go to your account page, or log out on this device.",
  },
  noScript:
    "Signing in needs JavaScript: turn it on to sign in, sign up, get a sign-in link or reset your password.",
  terms: {
    before: "By signing in you agree to our",
    termsLink: "Terms of Service",
    and: "and",
    privacyLink: "Privacy Policy",
  },
};

/** The sign-in providers' buttons (each shown when its provider is on), above the password form. */
export const providerSignIn = {
  label: "Sign in with another account",
  buttons: {
    google: "Continue with Google",
    azure: "Continue with Microsoft",
    github: "Continue with GitHub",
    gitlab: "Continue with GitLab",
    keycloak: "Continue with your company account",
  } satisfies Record<SignInProvider, string>,
  or: "or",
};

/** Single sign-on: a work email's domain leads to the company's own identity provider. */
export const ssoSignIn = {
  formLabel: "Sign in with SSO",
  email: { label: "Work email", placeholder: "you@company.com" },
  submit: "Sign in with SSO",
};

/** The password form: sign in, sign up, a sign-in link instead, the way to a password reset. */
export const passwordSignIn = {
  formLabel: "Sign in",
  email: { label: "Email", placeholder: "Enter your email" },
  password: { label: "Password", placeholder: "Enter your password" },
  missing: { email: "Enter your email address.", password: "Enter your password." },
  forgotPassword: "Forgot password?",
  submit: "Sign in",
  signUp: "Sign up",
  or: "or",
  emailLink: "Email me a sign-in link",
  emailLinkNeedsEmail: "Enter your email first, then ask for the link.",
  noSession: "Sign-in did not return a session. Please try again.",
  unconfirmed: {
    status: "This account's email address isn't confirmed yet.",
    note: {
      before: "This account's email address isn't confirmed yet. Open the link we emailed to ",
      after: ", or have it sent again.",
    },
    resend: "Resend confirmation email",
  } satisfies { status: string; note: AddressLine; resend: string },
  signedUp: {
    title: "Success!",
    description: "Please check your email for verification.",
  } satisfies Notice,
  linkSent: (email: string): Notice => ({
    title: "Check your email",
    description: `We've sent a sign-in link to ${email}. It works once, within the hour.`,
  }),
  confirmationSent: (email: string): Notice => ({
    title: "Confirmation email sent",
    description: `We've sent a confirmation link to ${email}. Open it to finish signing up.`,
  }),
};

/** The request for a password reset link. */
export const passwordRecovery = {
  title: "Reset your password",
  description:
    "Enter the email of your account and we'll send you a link to choose a new password.",
  submit: "Send reset link",
  back: "Back to sign in",
  sent: {
    title: "Check your email",
    description: "If an account uses this address, we've sent it a link to choose a new password.",
  } satisfies Notice,
};

/** The step after each email went out: its code does what its link does. */
export const emailCodeSteps: Record<SentEmail, EmailCodeStepCopy> = {
  signInLink: {
    title: "Check your email",
    sentTo: {
      before: "We've sent a sign-in link and a 6-digit code to ",
      after: ". Open the link, or enter the code here.",
    },
    submitLabel: "Sign in",
  },
  confirmation: {
    title: "Confirm your email",
    sentTo: {
      before: "We've sent a confirmation link and a 6-digit code to ",
      after:
        ". Open the link, or enter the code here to finish creating your account. If this address already has an account, the email says how to sign in instead.",
    },
    submitLabel: "Confirm email",
  },
  recovery: {
    title: "Check your email",
    sentTo: {
      before: "If an account uses ",
      after:
        ", we've sent it a link and a 6-digit code to choose a new password. Open the link, or enter the code here.",
    },
    submitLabel: "Continue",
  },
};

/** Back from an email's code step to the password form. */
export const backToSignIn = passwordRecovery.back;

/** The authenticator app's code, owed after a sign-in by someone who turned it on. */
export const appCodeSignIn = {
  description:
    "Your account uses two-step verification. Open your authenticator app and enter the 6-digit code it shows for Revwise.",
  submit: "Verify and sign in",
  otherAccount: "Use a different account",
};

/** What a signed-in visitor sees on the sign-in page. */
export const signedInView = {
  title: "You're signed in",
  signedInAs: (name: string): AddressLine => ({
    before: `${name ? `${name}, you're` : "You're"} signed in as `,
    after: ".",
  }),
  account: "Go to your account",
};

/** The toasts of a finished sign-in. */
export const signedInNotices = {
  welcomeBack: { title: "Signed in", description: "Welcome back to Revwise." },
  emailConfirmed: {
    title: "Email confirmed",
    description: "Welcome to Revwise! You're signed in.",
  },
} satisfies Record<string, Notice>;
