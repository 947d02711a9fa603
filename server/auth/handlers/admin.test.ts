// The admin API through supabase-js's `auth.admin` with the service-role key: only that key gets
// in; users are listed with GoTrue's pagination headers, created, read, updated (metadata merged,
// bans, email and password) and deleted, hard or soft; a user's factors are listed and removed;
// links of every type are generated and work; invitations are emailed and work.
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { raiseToAal2 } from "../../../tests/support/team.ts";
import {
  followLink,
  linkIn,
  PASSWORD,
  uniqueEmail,
  uniquePhone,
} from "../../../tests/support/auth.ts";

describeAuthSuite("auth: admin API", ({ server, auth, client, confirmedUser, emailTo, count }) => {
  const admin = () => server.admin().auth.admin;
  const asAdmin = (path: string, init: Omit<RequestInit, "headers"> = {}) =>
    auth(path, {
      ...init,
      headers: { authorization: `Bearer ${server.serviceRoleKey}` },
    });
  const signIn = (email: string, password = PASSWORD) =>
    client().auth.signInWithPassword({ email, password });

  it("lets in the service-role key only, before reading anything", async () => {
    const { session } = await confirmedUser("not-admin");
    const tries = [
      [{}, 401, "no_authorization"],
      [{ authorization: `Bearer ${server.anonKey}` }, 403, "not_admin"],
      [{ authorization: `Bearer ${session.access_token}` }, 403, "not_admin"],
      [{ authorization: `Bearer ${server.serviceRoleKey.slice(0, -2)}xx` }, 403, "bad_jwt"],
    ] as const;
    for (const [headers, status, code] of tries) {
      for (const [method, path] of [
        ["GET", "/admin/users"],
        ["POST", "/admin/users"],
        ["GET", "/admin/users/not-a-uuid"],
        ["DELETE", `/admin/users/${session.user.id}`],
        ["POST", "/admin/generate_link"],
        ["POST", "/invite"],
      ]) {
        const res = await auth(path!, {
          method,
          headers,
          body: method === "POST" ? "{}" : undefined,
        });
        expect([path, res.status, (await res.json()).error_code]).toEqual([path, status, code]);
      }
    }
    expect((await admin().getUserById(session.user.id)).data.user?.email).toBe(session.user.email);
  });

  it("creates users with everything set, and refuses what it cannot create", async () => {
    const email = uniqueEmail("created");
    const created = await admin().createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { full_name: "Ada Quinn" },
      app_metadata: { team_role: "member" },
    });
    expect(created.error).toBeNull();
    expect(created.data.user).toMatchObject({
      email,
      email_confirmed_at: expect.any(String),
      user_metadata: { full_name: "Ada Quinn", email_verified: true },
      app_metadata: { provider: "email", providers: ["email"], team_role: "member" },
      identities: [expect.objectContaining({ provider: "email" })],
    });
    const signedIn = await signIn(email);
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user?.app_metadata.team_role).toBe("member");

    // Without a password: a link or code signs in, a password never does.
    const phone = uniquePhone();
    const bare = await admin().createUser({
      email: uniqueEmail("bare"),
      phone,
      phone_confirm: true,
    });
    expect(bare.data.user).toMatchObject({
      phone,
      phone_confirmed_at: expect.any(String),
      app_metadata: { provider: "email", providers: ["email", "phone"] },
    });
    expect(bare.data.user?.email_confirmed_at).toBeUndefined();

    const refusals = [
      [{ email }, 422, "email_exists"],
      [{ phone }, 422, "phone_exists"],
      [{}, 400, "validation_failed"],
      [{ email: "nope" }, 400, "validation_failed"],
      [
        { email: uniqueEmail(), password: "x", password_hash: "$argon2id$v=19$m=1,t=1,p=1$YQ$YQ" },
        400,
        "validation_failed",
      ],
      [
        { email: uniqueEmail(), password_hash: "$2a$10$abcdefghijklmnopqrstuv" },
        400,
        "validation_failed",
      ],
      [{ email: uniqueEmail(), id: "12" }, 400, "validation_failed"],
      // A field of another type is unreadable JSON, as GoTrue reads a body into typed fields.
      [{ email: uniqueEmail(), app_metadata: [1] }, 400, "bad_json"],
      [{ email: uniqueEmail(), email_confirm: "yes" }, 400, "bad_json"],
      [{ email: uniqueEmail(), ban_duration: 24 }, 400, "bad_json"],
      [{ email: uniqueEmail(), role: 7 }, 400, "bad_json"],
      [{ email: uniqueEmail(), ban_duration: "forever" }, 400, "validation_failed"],
    ] as const;
    const before = await count("SELECT count(*)::int AS n FROM auth.users", []);
    for (const [body, status, code] of refusals) {
      const res = await asAdmin("/admin/users", { method: "POST", body: JSON.stringify(body) });
      expect([body, res.status, (await res.json()).error_code]).toEqual([body, status, code]);
    }
    expect(await count("SELECT count(*)::int AS n FROM auth.users", [])).toBe(before);
  });

  it("lists users a page at a time with GoTrue's headers, filtered and sorted", async () => {
    const domain = `list-${Date.now().toString(36)}.example`;
    for (const name of ["a", "b", "c"])
      await admin().createUser({ email: `${name}@${domain}`, email_confirm: true });

    const res = await asAdmin(`/admin/users?per_page=2&filter=${domain}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe("3");
    expect(res.headers.get("link")).toBe(
      `</auth/v1/admin/users?filter=${domain}&page=2&per_page=2>; rel="next", ` +
        `</auth/v1/admin/users?filter=${domain}&page=2&per_page=2>; rel="last"`,
    );
    const body = (await res.json()) as { users: { email: string }[]; aud: string };
    expect(body.aud).toBe("authenticated");
    expect(body.users.map((u) => u.email)).toEqual([`c@${domain}`, `b@${domain}`]);
    const oldest = await asAdmin(`/admin/users?filter=${domain}&sort=created_at%20asc&per_page=1`);
    expect(((await oldest.json()) as typeof body).users.map((u) => u.email)).toEqual([
      `a@${domain}`,
    ]);
    // A pattern character is taken literally.
    const literal = await asAdmin(`/admin/users?filter=${encodeURIComponent(`_@${domain}`)}`);
    expect(literal.headers.get("x-total-count")).toBe("0");

    // supabase-js reads the same headers.
    const page = await admin().listUsers({ page: 1, perPage: 1 });
    expect(page.error).toBeNull();
    expect(page.data.users).toHaveLength(1);
    expect((page.data as { total: number }).total).toBeGreaterThanOrEqual(3);
    expect((page.data as { nextPage: number | null }).nextPage).toBe(2);

    for (const [query, msg] of [
      ["page=x", 'Bad Pagination Parameters: strconv.ParseUint: parsing "x": invalid syntax'],
      ["per_page=-1", 'Bad Pagination Parameters: strconv.ParseUint: parsing "-1": invalid syntax'],
      [
        "page=18446744073709551616",
        'Bad Pagination Parameters: strconv.ParseUint: parsing "18446744073709551616": value out of range',
      ],
      ["sort=email%20asc", "Bad Sort Parameters: bad field for sort 'email'"],
      ["sort=", "Bad Sort Parameters: bad field for sort ''"],
      ["sort=CREATED_AT", "Bad Sort Parameters: bad field for sort 'CREATED_AT'"],
      [
        "sort=created_at%20sideways",
        "Bad Sort Parameters: bad direction for sort 'sideways', only 'asc' and 'desc' allowed",
      ],
    ]) {
      const bad = await asAdmin(`/admin/users?${query}`);
      expect([query, bad.status, await bad.json()]).toEqual([
        query,
        400,
        expect.objectContaining({ error_code: "validation_failed", msg }),
      ]);
    }
    // Numbers GoTrue reads are read: a page past the last is empty, a huge size is the cap.
    for (const query of ["page=10000000000", "per_page=10000000000", "sort=created_at%20ASC"])
      expect([query, (await asAdmin(`/admin/users?${query}`)).status]).toEqual([query, 200]);
  });

  it("updates users: metadata merged key by key, bans, email, password, confirmation", async () => {
    const { email, session } = await confirmedUser("updated");
    const id = session.user.id;
    await admin().updateUserById(id, { app_metadata: { team_role: "admin", plan: "pro" } });
    const merged = await admin().updateUserById(id, {
      app_metadata: { plan: null },
      user_metadata: { full_name: "Bo Lind" },
    });
    expect(merged.data.user?.app_metadata).toEqual({
      provider: "email",
      providers: ["email"],
      team_role: "admin",
    });
    expect(merged.data.user?.user_metadata.full_name).toBe("Bo Lind");

    const banned = await admin().updateUserById(id, { ban_duration: "1h30m" });
    expect(Date.parse(banned.data.user!.banned_until!) - Date.now()).toBeGreaterThan(89 * 60_000);
    expect((await signIn(email)).error).toMatchObject({ code: "user_banned" });
    const me = await auth("/user", {
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect([me.status, (await me.json()).error_code]).toEqual([403, "user_banned"]);
    await admin().updateUserById(id, { ban_duration: "none" });
    expect((await signIn(email)).error).toBeNull();

    for (const password of ["short", ""]) {
      const weak = await admin().updateUserById(id, { password });
      expect([password, weak.error]).toEqual([
        password,
        expect.objectContaining({ status: 422, code: "weak_password" }),
      ]);
    }
    await admin().updateUserById(id, { password: "Another-Horse-77" });
    expect((await signIn(email)).error).toMatchObject({ code: "invalid_credentials" });
    expect((await signIn(email, "Another-Horse-77")).error).toBeNull();

    const moved = uniqueEmail("moved");
    const changed = await admin().updateUserById(id, { email: moved, email_confirm: true });
    expect(changed.data.user).toMatchObject({
      email: moved,
      email_confirmed_at: expect.any(String),
    });
    expect(changed.data.user?.identities?.[0]?.identity_data).toMatchObject({ email: moved });
    expect((await signIn(moved, "Another-Horse-77")).error).toBeNull();

    const { email: taken } = await confirmedUser("taken");
    expect((await admin().updateUserById(id, { email: taken })).error).toMatchObject({
      status: 422,
      code: "email_exists",
    });
    // GoTrue's order: the addresses first (format, then taken), then the other fields.
    expect(
      (await admin().createUser({ email: taken, ban_duration: "1d" } as never)).error,
    ).toMatchObject({ status: 422, code: "email_exists" });
    expect(
      (await admin().updateUserById(id, { email: "bad", ban_duration: "1d" })).error?.message,
    ).toBe("Unable to validate email address: invalid format");
    const missing = await admin().updateUserById(crypto.randomUUID(), { role: "x" });
    expect(missing.error).toMatchObject({ status: 404, code: "user_not_found" });
  });

  it("deletes users hard or soft; a soft-deleted user keeps its row and loses the rest", async () => {
    const soft = await confirmedUser("soft");
    expect((await admin().deleteUser(soft.session.user.id, true)).error).toBeNull();
    const kept = await admin().getUserById(soft.session.user.id);
    expect(kept.data.user).toMatchObject({ email: "", deleted_at: expect.any(String) });
    expect((await signIn(soft.email)).error).toMatchObject({ code: "invalid_credentials" });
    const me = await auth("/user", {
      headers: { authorization: `Bearer ${soft.session.access_token}` },
    });
    expect(me.status).toBe(403);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM auth.identities WHERE user_id = $1 AND identity_data <> '{}'",
        [soft.session.user.id],
      ),
    ).toBe(0);
    // The address is free again.
    expect((await admin().createUser({ email: soft.email })).error).toBeNull();

    const hard = await confirmedUser("hard");
    expect((await admin().deleteUser(hard.session.user.id)).error).toBeNull();
    expect((await admin().getUserById(hard.session.user.id)).error).toMatchObject({
      status: 404,
      code: "user_not_found",
    });
    const res = await asAdmin("/admin/users/not-a-uuid", { method: "DELETE" });
    expect([res.status, (await res.json()).error_code]).toEqual([404, "validation_failed"]);
  });

  it("lists and removes a user's factors; the sessions it raised go back to aal1", async () => {
    const { supabase, session } = await confirmedUser("factors");
    const factorId = await raiseToAal2(supabase);

    const listed = await admin().mfa.listFactors({ userId: session.user.id });
    expect(listed.data?.factors).toEqual([
      expect.objectContaining({ id: factorId, status: "verified", factor_type: "totp" }),
    ]);
    const removed = await admin().mfa.deleteFactor({ userId: session.user.id, id: factorId });
    expect(removed.error).toBeNull();
    expect((await admin().mfa.listFactors({ userId: session.user.id })).data?.factors).toEqual([]);
    const refreshed = await supabase.auth.refreshSession();
    const claims = JSON.parse(
      Buffer.from(refreshed.data.session!.access_token.split(".")[1]!, "base64url").toString(),
    ) as { aal: string; amr: { method: string }[] };
    expect(claims.aal).toBe("aal1");
    // The factor's method leaves the session's amr with it.
    expect(claims.amr.map((a) => a.method)).toEqual(["password"]);
    const again = await admin().mfa.deleteFactor({ userId: session.user.id, id: factorId });
    expect(again.error).toMatchObject({ status: 404, code: "mfa_factor_not_found" });
  });

  it("generates working links of every type without sending anything", async () => {
    const newcomer = uniqueEmail("gen-signup");
    // A signup link for a new address makes its account, so it needs a password, as a sign-up.
    const bare = await asAdmin("/admin/generate_link", {
      method: "POST",
      body: JSON.stringify({ type: "signup", email: newcomer }),
    });
    expect([bare.status, await bare.json()]).toEqual([
      400,
      expect.objectContaining({
        error_code: "validation_failed",
        msg: "Signup requires a valid password",
      }),
    ]);
    const signup = await admin().generateLink({
      type: "signup",
      email: newcomer,
      password: PASSWORD,
    });
    expect(signup.error).toBeNull();
    expect(signup.data.properties).toMatchObject({
      verification_type: "signup",
      email_otp: expect.stringMatching(/^\d{6}$/),
    });
    expect(
      (await followLink(signup.data.properties!.action_link)).fragment.get("access_token"),
    ).toBeTruthy();
    expect((await signIn(newcomer)).error).toBeNull();

    const { email } = await confirmedUser("gen-links");
    for (const type of ["magiclink", "recovery"] as const) {
      const made = await admin().generateLink({ type, email });
      expect(made.data.properties?.verification_type).toBe(type);
      const { fragment } = await followLink(made.data.properties!.action_link);
      expect([type, Boolean(fragment.get("access_token"))]).toEqual([type, true]);
    }
    // The code works in place of the link.
    const coded = await admin().generateLink({ type: "magiclink", email });
    const byCode = await client().auth.verifyOtp({
      email,
      token: coded.data.properties!.email_otp,
      type: "email",
    });
    expect(byCode.error).toBeNull();

    // Both links of a change first (each new link restarts the change), then both used.
    const next = uniqueEmail("gen-next");
    const links: string[] = [];
    for (const type of ["email_change_current", "email_change_new"] as const) {
      const made = await admin().generateLink({ type, email, newEmail: next });
      expect(made.error).toBeNull();
      links.push(made.data.properties!.action_link);
    }
    for (const link of links) await followLink(link);
    expect((await signIn(next)).error).toBeNull();

    const invitee = uniqueEmail("gen-invite");
    const invite = await admin().generateLink({ type: "invite", email: invitee });
    expect(invite.data.user?.invited_at).toEqual(expect.any(String));
    expect(
      (await followLink(invite.data.properties!.action_link)).fragment.get("access_token"),
    ).toBeTruthy();

    // A sign-in link for an address with no account is a signup link, as in GoTrue: the account
    // is made unconfirmed with a random password (a password sent along is not the one).
    const stranger = uniqueEmail("gen-magic-new");
    const magic = await admin().generateLink({ type: "magiclink", email: stranger });
    expect(magic.error).toBeNull();
    expect(magic.data.user?.email).toBe(stranger);
    expect(magic.data.user?.email_confirmed_at).toBeUndefined();
    expect(magic.data.properties).toMatchObject({ verification_type: "signup" });
    expect(new URL(magic.data.properties!.action_link).searchParams.get("type")).toBe("signup");
    expect(
      (await followLink(magic.data.properties!.action_link)).fragment.get("access_token"),
    ).toBeTruthy();
    const withPassword = uniqueEmail("gen-magic-password");
    const ignored = await asAdmin("/admin/generate_link", {
      method: "POST",
      body: JSON.stringify({ type: "magiclink", email: withPassword, password: "x" }),
    });
    expect([ignored.status, (await ignored.json()).verification_type]).toEqual([200, "signup"]);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM auth.users WHERE email = $1 AND encrypted_password IS NOT NULL AND email_confirmed_at IS NULL",
        [withPassword],
      ),
    ).toBe(1);
    // "email" is a type of code, not of link, whether or not the address has an account.
    for (const to of [email, uniqueEmail("gen-email-type")]) {
      const res = await asAdmin("/admin/generate_link", {
        method: "POST",
        body: JSON.stringify({ type: "email", email: to }),
      });
      expect([res.status, (await res.json()).msg]).toEqual([
        400,
        "Invalid email action link type requested: email",
      ]);
    }

    const unknown = await admin().generateLink({ type: "recovery", email: uniqueEmail("nobody") });
    expect(unknown.error).toMatchObject({ status: 404, code: "user_not_found" });
    const res = await asAdmin("/admin/generate_link", {
      method: "POST",
      body: JSON.stringify({ type: "sorcery", email }),
    });
    expect([res.status, (await res.json()).error_code]).toEqual([400, "validation_failed"]);
    const noAddress = await asAdmin("/admin/generate_link", {
      method: "POST",
      body: JSON.stringify({ type: "magiclink", email: "" }),
    });
    expect([noAddress.status, (await noAddress.json()).msg]).toEqual([
      400,
      "An email address is required",
    ]);
  });

  it("refuses a link type that is no email action, a name every object inherits included", async () => {
    const { email } = await confirmedUser("link-types");
    const newcomer = uniqueEmail("link-types-new");
    const generate = (body: object) =>
      asAdmin("/admin/generate_link", { method: "POST", body: JSON.stringify(body) }).then(
        async (res) => [res.status, await res.json()] as const,
      );
    for (const to of [email, newcomer])
      for (const type of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"])
        expect([to, await generate({ type, email: to, password: PASSWORD })]).toEqual([
          to,
          [
            400,
            expect.objectContaining({
              error_code: "validation_failed",
              msg: `Invalid email action link type requested: ${type}`,
            }),
          ],
        ]);
    // A field of another type is unreadable JSON, as GoTrue reads a body into typed fields.
    for (const body of [
      { type: 5, email },
      { type: "magiclink", email, redirect_to: 5 },
    ])
      expect(await generate(body)).toEqual([
        400,
        expect.objectContaining({ error_code: "bad_json" }),
      ]);
    expect(
      await count("SELECT count(*)::int AS n FROM auth.users WHERE email = $1", [newcomer]),
    ).toBe(0);
  });

  it("refuses a password together with a hash, an empty password included, as GoTrue", async () => {
    const hash = "$argon2id$v=19$m=1,t=1,p=1$YQ$YQ";
    for (const password of ["x", ""]) {
      const email = uniqueEmail("pw-and-hash");
      const res = await asAdmin("/admin/users", {
        method: "POST",
        body: JSON.stringify({ email, password, password_hash: hash }),
      });
      expect([password, res.status, await res.json()]).toEqual([
        password,
        400,
        expect.objectContaining({
          error_code: "validation_failed",
          msg: "Only a password or a password hash should be provided",
        }),
      ]);
      expect(
        await count("SELECT count(*)::int AS n FROM auth.users WHERE email = $1", [email]),
      ).toBe(0);
    }
    // A null password is no password: the hash is imported.
    const imported = await asAdmin("/admin/users", {
      method: "POST",
      body: JSON.stringify({
        email: uniqueEmail("hash-only"),
        password: null,
        password_hash: hash,
      }),
    });
    expect(imported.status).toBe(200);
  });

  it("stores a role trimmed, as GoTrue's SetRole, on creation and update", async () => {
    const created = await admin().createUser({ email: uniqueEmail("role"), role: "  editor \n" });
    expect(created.data.user?.role).toBe("editor");
    const id = created.data.user!.id;
    const updated = await admin().updateUserById(id, { role: "\treviewer  " });
    expect(updated.data.user?.role).toBe("reviewer");
    // null is no role, as JSON null leaves GoTrue's field empty.
    const kept = await asAdmin(`/admin/users/${id}`, {
      method: "PUT",
      body: JSON.stringify({ role: null }),
    });
    expect([kept.status, (await kept.json()).role]).toEqual([200, "reviewer"]);
    // Spaces only leave it as it was: an empty role would make every token of the user unusable.
    const blank = await admin().updateUserById(id, { role: "   " });
    expect(blank.data.user?.role).toBe("reviewer");
    // A flag sent as null is false, as Go reads a bool field.
    const flagged = await asAdmin(`/admin/users/${id}`, {
      method: "PUT",
      body: JSON.stringify({ email_confirm: null }),
    });
    expect(flagged.status).toBe(200);
    expect(
      await count("SELECT count(*)::int AS n FROM auth.users WHERE id = $1 AND role = $2", [
        id,
        "reviewer",
      ]),
    ).toBe(1);
  });

  it("refuses a new user with another user's id with 422 (GoTrue fails it with a 500), and creates nothing", async () => {
    const { data } = await admin().createUser({ email: uniqueEmail("first-id") });
    const taken = data.user!.id;
    for (const who of [{ email: uniqueEmail("same-id") }, { phone: uniquePhone() }]) {
      const res = await asAdmin("/admin/users", {
        method: "POST",
        body: JSON.stringify({ ...who, id: taken }),
      });
      expect([who, res.status, await res.json()]).toEqual([
        who,
        422,
        expect.objectContaining({
          error_code: "user_already_exists",
          msg: "A user with this ID already exists",
        }),
      ]);
    }
    expect(await count("SELECT count(*)::int AS n FROM auth.users WHERE id = $1", [taken])).toBe(1);
  });

  it("reads typed fields as GoTrue does: another type, or a number JSON cannot hold, is bad_json", async () => {
    const { session } = await confirmedUser("typed-fields");
    const created = uniqueEmail("typed-new");
    for (const body of [
      `{"email":"${created}","user_metadata":{"a":1e400}}`,
      `{"email":"${created}","app_metadata":{"a":[-1e400]}}`,
    ]) {
      const res = await asAdmin("/admin/users", { method: "POST", body });
      expect([body, res.status, (await res.json()).error_code]).toEqual([body, 400, "bad_json"]);
    }
    expect(
      await count("SELECT count(*)::int AS n FROM auth.users WHERE email = $1", [created]),
    ).toBe(0);
    const deleted = await asAdmin(`/admin/users/${session.user.id}`, {
      method: "DELETE",
      body: JSON.stringify({ should_soft_delete: "yes" }),
    });
    expect([deleted.status, (await deleted.json()).error_code]).toEqual([400, "bad_json"]);
    expect((await admin().getUserById(session.user.id)).data.user?.deleted_at).toBeUndefined();
  });

  it("emails invitations that sign the invitee in, and never to a confirmed account", async () => {
    const invitee = uniqueEmail("invited");
    const invited = await admin().inviteUserByEmail(invitee, { data: { full_name: "Cy Moreau" } });
    expect(invited.error).toBeNull();
    expect(invited.data.user).toMatchObject({ email: invitee, invited_at: expect.any(String) });
    const mail = await emailTo(invitee, "You are invited to Revwise");
    const { fragment } = await followLink(linkIn(mail));
    const token = fragment.get("access_token")!;
    const me = await auth("/user", { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toMatchObject({
      email: invitee,
      email_confirmed_at: expect.any(String),
      user_metadata: { full_name: "Cy Moreau" },
    });
    expect((await admin().inviteUserByEmail(invitee)).error).toMatchObject({
      status: 422,
      code: "email_exists",
    });
  });
});
