// POST /logout with each scope.
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { PASSWORD } from "../../../tests/support/auth.ts";

describeAuthSuite("auth: logout", ({ client, auth, confirmedUser }) => {
  it("signs out with each scope: others, local, global", async () => {
    const { email } = await confirmedUser("scopes");
    const sessions = await Promise.all(
      [1, 2, 3].map(async () => {
        const c = client();
        await c.auth.signInWithPassword({ email, password: PASSWORD });
        return c;
      }),
    );
    const [a, b, c] = sessions as [
      (typeof sessions)[0],
      (typeof sessions)[0],
      (typeof sessions)[0],
    ];
    const valid = async (s: typeof a) =>
      (
        await auth("/user", {
          headers: {
            authorization: `Bearer ${(await s.auth.getSession()).data.session?.access_token}`,
          },
        })
      ).status === 200;

    expect((await a.auth.signOut({ scope: "others" })).error).toBeNull();
    expect([await valid(a), await valid(b), await valid(c)]).toEqual([true, false, false]);

    const d = client();
    await d.auth.signInWithPassword({ email, password: PASSWORD });
    expect((await a.auth.signOut({ scope: "local" })).error).toBeNull();
    expect((await a.auth.getSession()).data.session).toBeNull();
    expect(await valid(d)).toBe(true);

    const e = client();
    await e.auth.signInWithPassword({ email, password: PASSWORD });
    expect((await d.auth.signOut()).error).toBeNull(); // global is the default
    const token = (await e.auth.getSession()).data.session!.access_token;
    expect((await auth("/user", { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      403,
    );

    // Authentication comes first, then the scope, as GoTrue checks them.
    const badScope = (authorization?: string) =>
      auth("/logout?scope=everyone", {
        method: "POST",
        headers: authorization ? { authorization } : {},
      }).then(async (r) => [r.status, (await r.json()).error_code]);
    expect(await badScope()).toEqual([401, "no_authorization"]);
    expect(await badScope(`Bearer ${token}`)).toEqual([403, "session_not_found"]);
    const { session: live } = await confirmedUser("logout-scope");
    expect(await badScope(`Bearer ${live.access_token}`)).toEqual([400, "validation_failed"]);
  });
});
