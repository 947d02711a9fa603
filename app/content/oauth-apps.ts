// The words of the OAuth consent page (another tool asks to act for the person) and of the
// account page's "Apps you allowed": each scope in people's words, the questions and the answers.

/** What each scope lets the app do, as the person reads it (the server's scopes, oauth-server/scopes.ts). */
export const scopeWords: Record<string, string> = {
  openid: "Confirm who you are with your Revwise account",
  email: "See your email address",
  profile: "See your name and profile details",
  phone: "See your phone number",
  offline_access: "Stay connected when you're not using it",
};

/** A scope the page has no words for (a newer one): named as the server sends it. */
export const scopeInWords = (scope: string) => scopeWords[scope] ?? `Use “${scope}”`;

export const consentPage = {
  heading: "Allow an app",
  lead: "An app asks to use your Revwise account. Check who asks and for what before you answer.",
  noscript: "This page needs JavaScript: turn it on to answer the app's request.",
  loading: "Loading the request...",
  title: (app: string) => `${app} wants to use your Revwise account`,
  unnamedApp: "An app",
  account: "Signed in as",
  from: "Its website:",
  asks: "It will be able to:",
  approve: "Allow",
  deny: "Deny",
  approving: "Allowing...",
  denying: "Denying...",
  note: "You can remove its access at any time from your account page, under “Apps you allowed”.",
  leaving: "Taking you back to the app...",
  gone: {
    title: "This request can't be answered",
    description:
      "It expired, was already answered, or belongs to another account. Go back to the app and start again.",
  },
  missing: {
    title: "No request to answer",
    description: "This page answers an app's request to use your account. Start from the app.",
  },
  signIn: {
    title: "Sign in to answer the app's request",
    description: "Taking you to the sign-in page...",
  },
};

export const allowedApps = {
  title: "Apps you allowed",
  description:
    "Other tools that can use your Revwise account with your permission. Remove the ones you no longer use.",
  loading: "Loading the apps you allowed...",
  none: "You haven't allowed any app to use your account.",
  count: (apps: number) => `${apps} ${apps === 1 ? "app can" : "apps can"} use your account.`,
  since: (date: string) => `Allowed ${date}`,
  can: "Can:",
  remove: "Remove",
  removeLabel: (app: string) => `Remove ${app}'s access`,
  removed: (app: string) => ({
    title: "Access removed",
    description: `${app} can no longer use your account.`,
  }),
};
