// The account emails: confirmation, password recovery, sign-in link, invitation, email change, and the notice
// an existing account owner gets when someone tries to sign up with their address.
import { EMAIL_LINK_PAGE } from "../../../common/accounts.ts";
import { actionEmail } from "../../mail/templates.ts";
import type { Email } from "../../mail/outbox.ts";

type Link = { to: string; url: string; code: string };

const ignore =
  "If you did not ask for this, you can ignore this email: nothing changes until the link is used.";
const validity = "The link and the code are valid for one hour and work once.";
const linkValidity = "The link is valid for one hour and works once.";

export function verifyUrl(
  siteUrl: string,
  token: string,
  type: string,
  redirectTo: string,
): string {
  const url = new URL(`${siteUrl}/auth/v1/verify`);
  url.searchParams.set("token", token);
  url.searchParams.set("type", type);
  url.searchParams.set("redirect_to", redirectTo);
  return url.toString();
}

/**
 * The link an account email carries. One that leads to the site opens the site's page for it
 * (`EMAIL_LINK_PAGE`), which uses the token only when its reader presses its button, then goes on
 * to `redirectTo`: a mail scanner that opens the link (GET or HEAD) uses nothing and receives no
 * session. One that leads elsewhere (a native app on loopback, outside production) is GoTrue's
 * /verify link, which uses the token and redirects with the session or the PKCE flow's code.
 */
export function emailLinkUrl(
  siteUrl: string,
  token: string,
  type: string,
  redirectTo: string,
): string {
  if (new URL(redirectTo).origin !== new URL(siteUrl).origin)
    return verifyUrl(siteUrl, token, type, redirectTo);
  const url = new URL(`${siteUrl}${EMAIL_LINK_PAGE}`);
  url.searchParams.set("token_hash", token);
  url.searchParams.set("type", type);
  url.searchParams.set("redirect_to", redirectTo);
  return url.toString();
}

/**
 * An email whose action is a verification link, with the same link's code, the page that takes
 * the code (the one where it was asked for, which offers a field for it), and their validity. An
 * email asked for on no page of the site (an invitation) carries the link alone.
 */
const linkEmail = (
  { to, url, code }: Link,
  copy: {
    kind: string;
    subject: string;
    heading: string;
    intro: string;
    label: string;
    /** Where the code is entered: "on …". */
    codePage: string | null;
    /** How long a link sent alone works, when not an hour. */
    validity?: string;
  },
): Email =>
  actionEmail({
    kind: copy.kind,
    to,
    subject: copy.subject,
    heading: copy.heading,
    paragraphs: copy.codePage
      ? [copy.intro, `Or enter this code ${copy.codePage}: ${code}`, validity]
      : [copy.intro, copy.validity ?? linkValidity],
    action: { label: copy.label, url },
    after: [ignore],
  });

export const confirmationEmail = (link: Link): Email =>
  linkEmail(link, {
    kind: "auth-confirmation",
    subject: "Confirm your Revwise account",
    heading: "Confirm your email address",
    intro:
      "Welcome to Revwise! Confirm that this is your email address to finish creating your account.",
    label: "Confirm my email",
    codePage: "on the page where you signed up",
  });

export const recoveryEmail = (link: Link): Email =>
  linkEmail(link, {
    kind: "auth-recovery",
    subject: "Reset your Revwise password",
    heading: "Choose a new password",
    intro: "Someone (hopefully you) asked to reset the password of your Revwise account.",
    label: "Choose a new password",
    codePage: "on the page where you asked to reset your password",
  });

/**
 * The sign-in link and code asked for on the sign-in page; for an address without an account yet,
 * the same link also creates it.
 */
export const magicLinkEmail = (link: Link, account: "existing" | "new"): Email =>
  linkEmail(link, {
    kind: "auth-magiclink",
    subject: "Your Revwise sign-in link",
    heading: "Sign in to Revwise",
    intro:
      account === "existing"
        ? "Someone (hopefully you) asked to sign in to your Revwise account with this email address."
        : "Someone (hopefully you) asked to sign in to Revwise with this email address. Signing in creates your account.",
    label: "Sign in",
    codePage: "on the page where you asked to sign in",
  });

/**
 * An invitation sent with the admin API: the link confirms the address and signs the person in.
 * No page of the site asked for it, so none takes a code: it carries the link alone.
 */
export const inviteEmail = (link: Link): Email =>
  linkEmail(link, {
    kind: "auth-invite",
    subject: "You are invited to Revwise",
    heading: "Join Revwise",
    intro:
      "You have been invited to create a Revwise account with this email address. Accept the invitation to sign in; you can then choose a password on your account page.",
    label: "Accept the invitation",
    codePage: null,
    validity: INVITE_VALIDITY,
  });

const INVITE_VALIDITY = "The link is valid for 7 days and works once.";

/**
 * An admin's invitation to the team workspace: who invited the person, as what, and why (the
 * admin's note, when they wrote one). Accepting it proves the address and opens the workspace,
 * where the person sets up an authenticator app.
 */
export const teamInviteEmail = (
  link: Link,
  invite: { by: string; role: string; note: string },
): Email =>
  actionEmail({
    kind: "auth-invite",
    to: link.to,
    subject: `${invite.by} invited you to the Revwise team workspace`,
    heading: "Join the Revwise team workspace",
    paragraphs: [
      `${invite.by} invited you to the team workspace of the Revwise website as ${invite.role}: the place where the team follows up the leads the website's forms bring in.`,
      ...(invite.note ? [`Their note: “${invite.note}”`] : []),
      "Accept the invitation to sign in. The workspace then asks you to set up an authenticator app, which every member uses to open it.",
      INVITE_VALIDITY,
    ],
    action: { label: "Accept the invitation", url: link.url },
    after: [
      `If you don't know ${invite.by} or didn't expect this, you can ignore this email: nothing happens until the link is used.`,
    ],
  });

/**
 * An admin put an existing account on the team: the person is told who did, as what and why,
 * and where the workspace is.
 */
export const teamAddedEmail = (
  to: string,
  invite: { by: string; role: string; note: string; url: string },
): Email =>
  actionEmail({
    kind: "team-added",
    to,
    subject: `${invite.by} added you to the Revwise team workspace`,
    heading: "You're on the Revwise team",
    paragraphs: [
      `${invite.by} added your account to the team workspace of the Revwise website as ${invite.role}: the place where the team follows up the leads the website's forms bring in.`,
      ...(invite.note ? [`Their note: “${invite.note}”`] : []),
      "Sign in with your account as usual. The first time, the workspace asks you to set up an authenticator app, unless you already use one.",
    ],
    action: { label: "Open the workspace", url: invite.url },
    after: [
      `If you didn't expect this, tell ${invite.by}, or ignore this email: the workspace opens only after you sign in.`,
    ],
  });

export const emailChangeEmail = (link: Link, role: "new" | "current", newEmail: string): Email =>
  linkEmail(link, {
    kind: "auth-email-change",
    subject:
      role === "new"
        ? "Confirm your new Revwise email address"
        : "Confirm the change of your Revwise email address",
    heading: role === "new" ? "Confirm your new email address" : "Confirm your email change",
    intro:
      role === "new"
        ? `Confirm that ${newEmail} is the new email address of your Revwise account.`
        : `Your Revwise account asked to change its email address to ${newEmail}. Confirm from this address too to complete the change.`,
    label: "Confirm the change",
    codePage: "on your account page",
  });

export const alreadyRegisteredEmail = (to: string, siteUrl: string): Email =>
  actionEmail({
    kind: "auth-already-registered",
    to,
    subject: "You already have a Revwise account",
    heading: "You already have an account",
    paragraphs: [
      "Someone tried to create a Revwise account with this email address, which already has one.",
      "If it was you, sign in instead. If you forgot your password, use “Forgot password?” on the sign-in page.",
    ],
    action: { label: "Sign in", url: `${siteUrl}/auth` },
    after: ["If it was not you, no action is needed: your account is unchanged."],
  });

export const emailTakenEmail = (to: string, siteUrl: string): Email =>
  actionEmail({
    kind: "auth-email-change",
    to,
    subject: "This address already has a Revwise account",
    heading: "This address is already in use",
    paragraphs: [
      "Someone asked to move their Revwise account to this email address, but it already belongs to a Revwise account, so nothing was changed.",
      "If you want to use this address, sign in to the account it already has.",
    ],
    action: { label: "Sign in", url: `${siteUrl}/auth` },
  });

/** The code that confirms a sensitive change (a new password) from a signed-in session. */
export const reauthenticationEmail = (to: string, code: string, siteUrl: string): Email =>
  actionEmail({
    kind: "auth-reauthentication",
    to,
    subject: "Your Revwise confirmation code",
    heading: "Confirm it is you",
    paragraphs: [
      "Your Revwise account asked to change its password.",
      `To confirm that it is you, enter this code: ${code}`,
      "The code is valid for one hour and works once.",
    ],
    action: { label: "Go to Revwise", url: siteUrl },
    after: ["If you did not ask for this, someone may be signed in as you: change your password."],
  });

/** The last email of an account its owner deleted (functions/account-deletion.ts). */
export const accountDeletedEmail = (to: string, siteUrl: string): Email =>
  actionEmail({
    kind: "auth-account-deleted",
    to,
    subject: "Your Revwise account was deleted",
    heading: "Your account was deleted",
    paragraphs: [
      "Your Revwise account was deleted at your request: its email address, name, password, phone number, two-step verification and sessions were erased, and every device was signed out.",
      "Requests you sent through our forms and your newsletter subscription are kept as our Privacy Policy says; you can unsubscribe from any newsletter email, or write to us to have them deleted.",
    ],
    action: { label: "Read our Privacy Policy", url: `${siteUrl}/privacy-policy` },
    after: [
      "If you did not delete your account, someone who knew your password or could read your email did: contact us through the contact page of our website.",
    ],
  });
