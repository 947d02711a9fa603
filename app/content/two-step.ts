// Two-step verification's words: the account page's list of second steps (each verified one, and
// each set-up left unfinished) with their removal, the recovery codes (shown once at set-up, made
// again on request), and the step that takes a recovery code in place of the app's code on every
// page that asks for one (decision 0038).

/** A toast's words. */
type Notice = { title: string; description: string };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The step that takes a recovery code in place of the authenticator app's code. */
export const recoveryCodeStep = {
  title: "Enter a recovery code",
  description:
    "Enter one of the recovery codes you saved when you set up two-step verification. Each code works once.",
  formName: "Recovery code",
  label: "Recovery code",
  /** The server's `mfa_verification_failed` ("Invalid recovery code entered"), in people's words. */
  wrong:
    "That recovery code didn't work. Check it against your saved codes: each one works once, and only the newest set works.",
  /** The way from the app's code step to this one. */
  use: "Use a recovery code",
  /** The way back to the app's code step. */
  useApp: "Use your authenticator app instead",
};

/** The toast after a sign-in that used a recovery code: how many are left, what to do next. */
export const signedInWithRecoveryCode = (left: number): Notice => ({
  title: "Signed in with a recovery code",
  description:
    left === 0
      ? "That was your last recovery code: make new ones on your account page."
      : `You have ${plural(left, "recovery code", "recovery codes")} left. Lost your phone? Remove its app and set up a new one on your account page.`,
});

/** The ten codes, shown once: after the first app is set up, and when new ones are made. */
export const recoveryCodesShown = {
  title: "Save your recovery codes",
  description:
    "If you lose your phone, each of these codes signs you in once in place of a code from your app. We show them only this once: copy them, download them or write them down, and keep them somewhere safe.",
  listLabel: "Your recovery codes",
  copy: "Copy codes",
  copied: { title: "Codes copied", description: "Paste them somewhere safe." } satisfies Notice,
  copyFailed:
    "Your browser didn't let us copy the codes. Download them or write them down instead.",
  download: "Download codes",
  fileName: "revwise-recovery-codes.txt",
  file: (codes: string[], made: string, site: string) =>
    [
      "Revwise recovery codes",
      `Made ${made} for ${site}. Each code works once, in place of a code from your authenticator app.`,
      "",
      ...codes,
      "",
    ].join("\n"),
  saved: "I've saved them",
};

/** The recovery codes on the account page: how many are left, and new ones on request. */
export const recoveryCodesSettings = {
  title: "Recovery codes",
  loading: "Checking your recovery codes...",
  left: (remaining: number, made: string) =>
    `${plural(remaining, "code", "codes")} of 10 left, made ${made}.`,
  none: "You have no recovery codes. Make some so you can still sign in if you lose your phone.",
  make: "Make recovery codes",
  makeNew: "Make new recovery codes",
  confirm:
    "Make new recovery codes? The codes you have now stop working as soon as the new ones are made.",
  confirmYes: "Yes, make new codes",
  keep: "Keep my codes",
};

/** The account page's list of second steps and their removal. */
export const twoStepSettings = {
  loading: "Checking your two-step verification...",
  off: "Add a second step to your sign-in: after your password or email link, Revwise asks for a 6-digit code from an authenticator app on your phone, such as 1Password, Google Authenticator or Microsoft Authenticator.",
  setUp: "Set up an authenticator app",
  listLabel: "Your second steps",
  appName: "Authenticator app",
  phoneName: "Phone",
  on: "On",
  unfinished: "Not finished",
  added: (date: string) => `Added ${date}`,
  unfinishedNote:
    "This set-up was started but never confirmed with a code, so it isn't asked for when you sign in. Remove it, or set up your app again. If you didn't start it, remove it and change your password.",
  remove: "Remove",
  /** The Remove button's accessible name: which entry it removes. */
  removeName: (name: string, unfinished: boolean) =>
    unfinished ? `Remove ${name} (not finished)` : `Remove ${name}`,
  confirmLabel: (name: string) => `Remove ${name}`,
  confirm: (name: string, unfinished: boolean, last: boolean) =>
    unfinished
      ? `Remove the unfinished set-up of ${name}?`
      : last
        ? `Remove ${name}? You'll sign in with your password or an email link alone, and your recovery codes stop working.`
        : `Remove ${name}? It won't be asked for when you sign in.`,
  confirmYes: "Yes, remove it",
  keep: "Keep it",
  stepUp: {
    title: "Confirm it's you",
    description: (name: string) =>
      `To remove ${name}, first enter a code from your authenticator app, or one of your recovery codes.`,
    submit: "Verify and remove",
  },
  removed: (name: string, last: boolean): Notice => ({
    title: `${name} removed`,
    description: last
      ? "You now sign in with your password or an email link alone."
      : "It won't be asked for when you sign in.",
  }),
  turnOn: {
    formName: "Turn on two-step verification",
    submit: "Verify and turn on",
    cancel: "Cancel",
    done: {
      title: "Two-step verification is on",
      description: "Next time you sign in, we'll ask for a code from your app.",
    } satisfies Notice,
  },
};
