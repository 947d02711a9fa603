// Passkeys' and security keys' words: the sign-in page's passkey button, the step that asks for a
// security key in place of an authenticator app's code, and the account page's passkeys and
// security keys (decision 0059).

/** A toast's words. */
type Notice = { title: string; description: string };

export const passkeySignIn = {
  button: "Sign in with a passkey",
  /** The browser closed its prompt, or no passkey of this site was chosen. */
  cancelled: {
    title: "No passkey used",
    description:
      "The passkey prompt closed without one. Try again, or sign in with your email and password.",
  } satisfies Notice,
  /** The server refused the passkey (unknown, removed, or its answer did not check out). */
  refused: {
    title: "That passkey didn't work",
    description:
      "It may have been removed from your account. Sign in with your email and password, then add it again on your account page.",
  } satisfies Notice,
};

/** The step of a session that owes its security key (a WebAuthn factor). */
export const securityKeyStep = {
  title: "Use your security key",
  description:
    "Insert or touch the security key (or use the passkey) you set up for two-step verification, then follow your browser's prompt.",
  button: "Use security key",
  failed:
    "That didn't work: the prompt closed, or the key isn't the one on your account. Try again, or use a recovery code.",
  teamDescription:
    "The workspace holds personal data, so it asks for the security key you set up for two-step verification.",
  resetDescription:
    "Your account uses two-step verification. Use the security key you set up for it, then choose your new password.",
  /** The recovery code's way back to this step. */
  useKey: "Use your security key instead",
};

export const passkeysSettings = {
  title: "Passkeys",
  description:
    "Sign in with your fingerprint, face or device PIN instead of a password. A passkey stays on your device or in your password manager.",
  empty: "No passkeys yet.",
  add: "Add a passkey",
  added: {
    title: "Passkey added",
    description: "Next time, choose “Sign in with a passkey” on the sign-in page.",
  } satisfies Notice,
  notAdded: {
    title: "No passkey added",
    description: "The browser's prompt closed without making one. Try again when you're ready.",
  } satisfies Notice,
  listLabel: "Your passkeys",
  addedOn: (date: string) => `Added ${date}`,
  lastUsed: (date: string) => `last used ${date}`,
  neverUsed: "not used yet",
  rename: "Rename",
  renameLabel: (name: string) => `Rename ${name}`,
  nameLabel: "Passkey name",
  save: "Save name",
  cancel: "Cancel",
  renamed: { title: "Passkey renamed", description: "The new name shows in your list." },
  remove: "Remove",
  removeLabel: (name: string) => `Remove ${name}`,
  removed: {
    title: "Passkey removed",
    description: "It no longer signs in to your account. Delete it from your device too.",
  } satisfies Notice,
};

export const securityKeysSettings = {
  heading: "Security keys",
  description:
    "A security key (or a passkey) can be your second step instead of an app's code: you touch it when you sign in.",
  add: "Add a security key",
  nameLabel: "Name for the key",
  namePlaceholder: "YubiKey",
  defaultName: "Security key",
  added: {
    title: "Security key added",
    description: "You'll use it for two-step verification when you sign in.",
  } satisfies Notice,
  notAdded: {
    title: "No security key added",
    description: "The browser's prompt closed without one. Try again when your key is at hand.",
  } satisfies Notice,
};
