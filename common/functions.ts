// Names of the server functions (/functions/v1/<name>) the site calls.
export const FUNCTIONS = {
  requestAccess: "intake-notification",
  contact: "contact-notification",
  requestDemo: "request-demo-notification",
  captchaChallenge: "captcha-challenge",
  /** The caller's own sessions (the account page's list). */
  sessions: "sessions",
} as const;
