// The Security tab's words for an event: its name (the server's own word for one it does not
// know), who did it, and its detail from what the server kept with it.
import { describe, expect, it } from "vitest";
import { LOG_TYPES } from "../../common/audit.ts";
import { auditActionLabels } from "../content/team.ts";
import { actionLabel, actorLabel, eventDetail } from "./security-log.ts";

describe("security log words", () => {
  it("names every action the server writes, and shows an unknown one as it is", () => {
    expect(Object.keys(auditActionLabels).sort()).toEqual(Object.keys(LOG_TYPES).sort());
    expect(actionLabel("login_failed")).toBe("Sign-in refused");
    expect(actionLabel("token_refreshed")).toBe("token_refreshed");
  });

  it("names the operator's key, and a person by their address", () => {
    expect(actorLabel("service_role")).toBe("Operator (service key)");
    expect(actorLabel("ada@example.com")).toBe("ada@example.com");
    expect(actorLabel("")).toBe("Unknown");
  });

  it("says each event's detail in words", () => {
    const cases: [string, Record<string, unknown> | null, string][] = [
      ["login", { provider: "password" }, "With a password"],
      ["login", { provider: "otp" }, "With an email link or code"],
      [
        "login_failed",
        { error_code: "invalid_credentials" },
        "Wrong password, or no account with this address",
      ],
      ["login_failed", { error_code: "user_banned" }, "The account is suspended"],
      ["logout", { scope: "others" }, "Every other device"],
      [
        "verification_attempted",
        { factor_type: "totp", verified: false },
        "Authenticator app: wrong code",
      ],
      ["user_modified", { fields: ["email"] }, "Asked to change: email"],
      ["user_modified", { email_changed: true }, "Email address changed"],
      ["user_modified", { user_email: "bo@example.com" }, "For bo@example.com"],
      [
        "team_role_granted",
        { user_email: "bo@example.com", role: "admin" },
        "bo@example.com as admin",
      ],
      [
        "team_role_removed",
        { user_email: "bo@example.com", role: "member" },
        "bo@example.com (was member)",
      ],
      [
        "webhook_endpoint_changed",
        { endpoint_url: "https://crm.example/x", changed: ["enabled"] },
        "https://crm.example/x (enabled)",
      ],
      ["csv_exported", { relation: "audit_log" }, "Security log"],
      ["user_deleted", { by: "self" }, "By the account's owner"],
      ["token_revoked", { reason: "refresh_token_reused" }, ""],
      ["logout", null, ""],
    ];
    for (const [action, traits, detail] of cases)
      expect([action, eventDetail({ action, traits })]).toEqual([action, detail]);
  });
});
