// The words of the page an account email's link opens (/auth/confirm): what the link is for, the
// button that uses it, and what follows. Each button says what the email's own button said.

/** The verification types an account email's link carries (GoTrue's /verify `type`). */
export type EmailLinkType = "signup" | "invite" | "magiclink" | "recovery" | "email_change";

export const emailLinkPage = {
  title: "Continue to Revwise",
  subtitle: "You opened a link from a Revwise email. Nothing happens until you press the button.",
  noScript:
    "This page needs JavaScript to finish: turn it on and open the link again, or enter the email's code on the page where you asked for it.",
  /** Shown before the page knows what the link is for (prerendered, and without JavaScript). */
  pending: { description: "Press the button to use your link.", action: "Continue" },
  kinds: {
    signup: {
      description: "Confirm that this is your email address to finish creating your account.",
      action: "Confirm my email",
    },
    invite: {
      description:
        "Accept the invitation to sign in to your Revwise account and open the team workspace.",
      action: "Accept the invitation",
    },
    magiclink: {
      description: "Sign in to your Revwise account with this link.",
      action: "Sign in",
    },
    recovery: {
      description: "Continue to choose a new password for your Revwise account.",
      action: "Choose a new password",
    },
    email_change: {
      description: "Confirm the change of your Revwise account's email address.",
      action: "Confirm the change",
    },
  } satisfies Record<EmailLinkType, { description: string; action: string }>,
  /** The link lacks its token or names no known use (cut short when copied). */
  incomplete:
    "This link is incomplete. Open it again from the email, or ask for a new one on the sign-in page.",
  /** Used already, or past its time (an hour; an invitation, 7 days). */
  expired:
    "This link has expired or was already used. Each link works once, within an hour (an invitation within 7 days): ask for a new one.",
  /** The first of an email change's two links. */
  otherLink:
    "Confirmed. Now open the link we sent to your other email address to finish the change.",
  askAgain: { label: "Go to the sign-in page", href: "/auth" },
  confirmed: { title: "Email confirmed", description: "Welcome to Revwise! You're signed in." },
  emailChanged: {
    title: "Email address updated",
    description: "Your account now uses your new email address.",
  },
};
