// GET /settings and the API version header every answer carries.
import { expect, it } from "vitest";
import { authHelpers } from "../../../tests/support/auth.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { useTestServer } from "../../../tests/support/test-server.ts";

describeEachDatabase("auth: settings and health", (ctx) => {
  const { server, smtp } = useTestServer(() => ctx.db, {
    env: { RATE_LIMIT_EMAIL_SENT: "100000" },
  });
  const { auth } = authHelpers(server, smtp, () => ctx.db);

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
