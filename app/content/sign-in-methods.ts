// The account page's sign-in methods: the identities linked to the account (its email address, a
// phone number, a Google or company account, …), linking another provider's, and unlinking one.
import type { SignInProvider } from "../../common/site-build.ts";

/** Each identity's provider as people name it. */
const PROVIDER_NAMES: Record<string, string> = {
  email: "Email address",
  phone: "Phone number",
  google: "Google",
  azure: "Microsoft",
  github: "GitHub",
  gitlab: "GitLab",
  keycloak: "Company account",
  apple: "Apple",
};

export const signInMethods = {
  title: "Sign-in methods",
  description:
    "The ways you can sign in to this account. Add your Google, Microsoft or company account, or remove one you no longer use.",
  listLabel: "Linked sign-in methods",
  providerName: (provider: string) => PROVIDER_NAMES[provider] ?? provider,
  since: (date: string) => `Added ${date}`,
  unlink: "Remove",
  unlinkLabel: (name: string, detail: string) => `Remove ${name}${detail ? ` (${detail})` : ""}`,
  lastOne: "Your only sign-in method can't be removed.",
  linkHeading: "Add a sign-in method",
  link: (provider: SignInProvider) => `Add ${PROVIDER_NAMES[provider]}`,
  unlinked: (name: string) => ({
    title: "Sign-in method removed",
    description: `You can no longer sign in with ${name}.`,
  }),
  linkingOff: "Adding sign-in methods is turned off on this site.",
};
