// What sign-ins leave behind goes as GoTrue's cleanup has it, by a clock given to the job (no
// waiting): a link request's PKCE flow state after a day, an anonymous user (and its sessions)
// after 30 days while anonymous sign-ins are on, and no anonymous user while they are off; a
// passkey sign-in's challenge once past its time; an OAuth authorization request a day past its
// time.
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../tests/support/auth-suite.ts";
import { uniqueEmail } from "../../tests/support/auth.ts";
import { cleanUpSignIns } from "./cleanup.ts";

const DAY = 86_400_000;
const later = (ms: number) => new Date(Date.now() + ms);

describeAuthSuite(
  "auth: cleanup of what sign-ins leave behind",
  ({ auth, client, count, ctx, server }) => {
    it("deletes flow states a day old and anonymous users 30 days old, with their sessions", async () => {
      const email = uniqueEmail("cleanup");
      const res = await auth("/otp", {
        method: "POST",
        body: JSON.stringify({
          email,
          create_user: true,
          code_challenge: "c".repeat(43),
          code_challenge_method: "s256",
        }),
      });
      expect(res.status).toBe(200);
      const flows = () =>
        count(
          `SELECT count(*)::int AS n FROM auth.flow_states f JOIN auth.users u ON u.id = f.user_id
           WHERE u.email = $1`,
          [email],
        );
      expect(await flows()).toBe(1);
      const { data } = await client().auth.signInAnonymously();
      const id = data.user!.id;
      const rowsOf = async () => [
        await count("SELECT count(*)::int AS n FROM auth.users WHERE id = $1", [id]),
        await count("SELECT count(*)::int AS n FROM auth.sessions WHERE user_id = $1", [id]),
      ];
      expect(await rowsOf()).toEqual([1, 1]);

      const on = { anonymousEnabled: true };
      await cleanUpSignIns(ctx.db, on, later(DAY - 60_000));
      expect(await flows()).toBe(1);
      await cleanUpSignIns(ctx.db, on, later(DAY + 60_000));
      expect(await flows()).toBe(0);
      expect(await rowsOf()).toEqual([1, 1]);
      await cleanUpSignIns(ctx.db, on, later(30 * DAY - 60_000));
      expect(await rowsOf()).toEqual([1, 1]);
      // Anonymous sign-ins turned off: GoTrue leaves anonymous users alone.
      await cleanUpSignIns(ctx.db, { anonymousEnabled: false }, later(30 * DAY + 60_000));
      expect(await rowsOf()).toEqual([1, 1]);
      await cleanUpSignIns(ctx.db, on, later(30 * DAY + 60_000));
      expect(await rowsOf()).toEqual([0, 0]);
      // The account the link request made is not anonymous and stays.
      expect(
        await count("SELECT count(*)::int AS n FROM auth.users WHERE email = $1", [email]),
      ).toBe(1);
    });

    it("deletes passkey challenges nobody answered once past their time", async () => {
      const res = await auth("/passkeys/authentication/options", { method: "POST", body: "{}" });
      const { challenge_id: id, expires_at: expiresAt } = (await res.json()) as {
        challenge_id: string;
        expires_at: number;
      };
      const left = () =>
        count("SELECT count(*)::int AS n FROM auth.webauthn_challenges WHERE id = $1", [id]);
      const off = { anonymousEnabled: false };
      await cleanUpSignIns(ctx.db, off, new Date(expiresAt * 1000 - 60_000));
      expect(await left()).toBe(1);
      await cleanUpSignIns(ctx.db, off, new Date(expiresAt * 1000 + 60_000));
      expect(await left()).toBe(0);
    });

    it("deletes OAuth authorization requests a day past their time", async () => {
      const { data: app } = await server.admin().auth.admin.oauth.createClient({
        client_name: "Cleanup",
        redirect_uris: ["http://127.0.0.1:9/callback"],
      });
      const query = new URLSearchParams({
        client_id: app!.client_id,
        redirect_uri: "http://127.0.0.1:9/callback",
        code_challenge: "c".repeat(43),
        code_challenge_method: "S256",
      });
      const res = await auth(`/oauth/authorize?${query}`, { redirect: "manual" });
      expect(res.status).toBe(302);
      const left = () =>
        count("SELECT count(*)::int AS n FROM auth.oauth_authorizations WHERE client_id = $1", [
          app!.client_id,
        ]);
      expect(await left()).toBe(1);
      const off = { anonymousEnabled: false };
      // Alive ten minutes (GOTRUE_OAUTH_SERVER_AUTHORIZATION_TTL), then kept a day.
      await cleanUpSignIns(ctx.db, off, later(DAY));
      expect(await left()).toBe(1);
      await cleanUpSignIns(ctx.db, off, later(DAY + 11 * 60_000));
      expect(await left()).toBe(0);
    });
  },
  {
    GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true",
    GOTRUE_PASSKEY_ENABLED: "true",
    GOTRUE_OAUTH_SERVER_ENABLED: "true",
  },
);
