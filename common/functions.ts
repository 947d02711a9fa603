// Names of the server functions (/functions/v1/<name>) the site calls.
export const FUNCTIONS = {
  requestAccess: "intake-notification",
  contact: "contact-notification",
  requestDemo: "request-demo-notification",
  captchaChallenge: "captcha-challenge",
  /** The caller's own sessions (the account page's list). */
  sessions: "sessions",
  /** The caller's data, as JSON (the account page's "Download my data"). */
  accountData: "account-data",
  /** The caller's account erased, with their current password or an emailed code. */
  accountDeletion: "account-deletion",
} as const;
