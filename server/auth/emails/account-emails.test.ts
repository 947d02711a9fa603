// The account emails' words about their code: each email whose code a page of the site takes says
// which page (the one where it was asked for, which offers the field), in the text and the HTML;
// an invitation, asked for on no page, carries its link alone, and a team admin's says who sent it
// and why.
import { describe, expect, it } from "vitest";
import {
  confirmationEmail,
  emailChangeEmail,
  inviteEmail,
  magicLinkEmail,
  recoveryEmail,
  teamInviteEmail,
} from "./account-emails.ts";

const link = {
  to: "ada@example.com",
  url: "https://revwise.example/auth/v1/verify?x",
  code: "482913",
};

describe("account emails", () => {
  it.each([
    ["confirmation", confirmationEmail(link), "on the page where you signed up"],
    ["sign-in link", magicLinkEmail(link, "existing"), "on the page where you asked to sign in"],
    [
      "sign-in link, new account",
      magicLinkEmail(link, "new"),
      "on the page where you asked to sign in",
    ],
    ["recovery", recoveryEmail(link), "on the page where you asked to reset your password"],
    ["email change, new", emailChangeEmail(link, "new", "b@example.com"), "on your account page"],
    [
      "email change, current",
      emailChangeEmail(link, "current", "b@example.com"),
      "on your account page",
    ],
  ])("the %s email says where its code goes", (_name, email, page) => {
    const line = `Or enter this code ${page}: 482913`;
    expect(email.text).toContain(line);
    expect(email.html).toContain(line);
    expect(email.text).toContain("The link and the code are valid for one hour and work once.");
  });

  it("an invitation carries its link and no code", () => {
    const email = inviteEmail(link);
    expect(email.text).not.toContain("482913");
    expect(email.html).not.toContain("482913");
    // An invitation may be read days later: its link works for a week (decision 0057).
    expect(email.text).toContain("The link is valid for 7 days and works once.");
    expect(email.text).toContain(link.url);
  });

  it("a team admin's invitation names the admin, the role and their note", () => {
    const email = teamInviteEmail(link, {
      by: "jordan@revwise.example",
      role: "an admin",
      note: "For the webhooks <3",
    });
    expect(email.subject).toBe("jordan@revwise.example invited you to the Revwise team workspace");
    expect(email.text).toContain("as an admin");
    expect(email.text).toContain("Their note: “For the webhooks <3”");
    expect(email.html).toContain("For the webhooks &lt;3");
    expect(email.text).toContain("The link is valid for 7 days and works once.");
    expect(email.text).toContain(link.url);
  });
});
