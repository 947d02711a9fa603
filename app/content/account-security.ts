// The account page's words for what protects the account and the person's rights over it: the
// password change (the current password, or an emailed code for an account without one), the
// download of the account's data, and the deletion of the account.

export const passwordChange = {
  current: {
    label: "Current password",
    description:
      "Signed in with an emailed link and never chose a password? Leave this empty: we'll email you a code instead.",
    missing: "Enter your current password.",
    wrong: "That's not your current password. Forgot it? Sign out and use “Forgot password?”.",
  },
  submit: "Change password",
  saving: "Saving...",
  changed: {
    title: "Password changed",
    description: "Use your new password next time you sign in. We've emailed you a notice.",
  },
};

export const dataDownload = {
  title: "Your data",
  description:
    "Download a copy of what we hold about you: your account, sessions, two-step verification (never its secrets), the requests and newsletter subscription under your email, and what you did in the team's workspace.",
  button: "Download my data",
  busy: "Preparing...",
  done: { title: "Download ready", description: "Your data was saved as a JSON file." },
  fileName: "revwise-my-data.json",
};

export const accountDeletion = {
  title: "Delete account",
  description:
    "Deleting your account signs you out everywhere and erases your account: your email, name, password, phone, two-step verification and sessions. It cannot be undone. Requests you sent through our forms and your newsletter subscription are kept as our Privacy Policy says; the team's history shows “a former member” where it named you.",
  open: "Delete my account…",
  confirmLabel: "Delete your account",
  current: {
    label: "Current password",
    description: "To confirm it's you.",
    missing: "Enter your current password, or ask for a code by email.",
    wrong: "That's not your current password.",
  },
  codeInstead: "Email me a code instead",
  codeSent: (email: string) =>
    `We've emailed a 6-digit code to ${email}. Enter it to delete your account.`,
  askAgainIn: (wait: string) =>
    `The code we emailed a moment ago still works. You can ask for a new one in ${wait}.`,
  code: { label: "Code from your email", missing: "Enter the code from your email." },
  codeWrong: "That code is wrong or has expired. Check the latest email or ask for a new code.",
  needsSecondFactor:
    "Your account uses two-step verification: sign in again with your authenticator app to delete it.",
  submit: "Delete my account for good",
  deleting: "Deleting...",
  cancel: "Cancel",
  deleted: {
    title: "Account deleted",
    description:
      "Your account and its personal data were erased. We've emailed you a confirmation.",
  },
};
