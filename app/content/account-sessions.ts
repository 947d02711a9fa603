// The words of the account page's list of sessions: each device, its own "Sign out", the button
// that signs out all the others, and what follows each.

export const sessionList = {
  loading: "Loading your sessions...",
  thisDevice: "This device",
  signOut: "Sign out",
  /** The button's full name: "Sign out" first (what it shows), then which session. */
  signOutLabel: (device: string, since: string, current: boolean) =>
    current
      ? `Sign out this device (${device}, signed in ${since})`
      : `Sign out ${device}, signed in ${since}`,
  signOutOthers: "Sign out other devices",
  count: (others: number) =>
    others === 0
      ? "You're signed in on this device only."
      : `Signed in on ${others} other ${others === 1 ? "device" : "devices"}.`,
  othersSignedOut: {
    title: "Signed out of other devices",
    description: "Only this device is still signed in.",
  },
  oneSignedOut: (device: string) => ({
    title: "Device signed out",
    description: `${device} is no longer signed in to your account.`,
  }),
  thisSignedOut: { title: "Logged out successfully", description: "This device is signed out." },
};
