// The one line under each lead form: what happens with what the visitor sends (the privacy
// policy's purposes, said plainly). The form adds the link to the policy.
export const privacyNotes = {
  requestAccess:
    "We use these details to set up your access and to contact you about it, nothing else.",
  requestDemo: "We use these details to arrange your demo and to follow up about it, nothing else.",
  demoEmail: "We use your email to send you the demo and to follow up about it, nothing else.",
  contact: "We use these details to answer your message, nothing else.",
  newsletter:
    "We email you a link to confirm, then use your email only to send the newsletter; unsubscribe from any issue.",
} satisfies Record<string, string>;

export type PrivacyNoteKind = keyof typeof privacyNotes;
