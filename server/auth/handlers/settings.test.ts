// GET /settings and the API version header every answer carries.
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";

describeAuthSuite("auth: settings and health", ({ auth }) => {
  it("serves settings and health, with the API version on every answer", async () => {
    const settings = await auth("/settings");
    expect(settings.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    expect(await settings.json()).toMatchObject({
      external: { email: true, phone: false },
      disable_signup: false,
      mailer_autoconfirm: false,
    });
  });
});
