// Hostile or malformed requests to every auth endpoint: GoTrue's 4xx codes, never a 5xx, nothing
// written.
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../tests/support/auth-suite.ts";
import { followLink, PASSWORD, uniqueEmail } from "../../tests/support/auth.ts";

describeAuthSuite("auth: bad input", ({ server, auth, count }) => {
  it("answers bad input with GoTrue's 4xx codes, never a 5xx", async () => {
    const post = (path: string, body: string) =>
      auth(path, { method: "POST", body }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
        version: r.headers.get("x-supabase-api-version"),
      }));
    expect(await post("/signup", "{bad json")).toMatchObject({
      status: 400,
      body: { code: "bad_json" },
      version: "2024-01-01",
    });
    expect(await post("/signup", "[1,2]")).toMatchObject({
      status: 400,
      body: { code: "bad_json" },
    });
    expect(
      await post("/signup", JSON.stringify({ email: "not-an-email", password: PASSWORD })),
    ).toMatchObject({ status: 400, body: { code: "validation_failed" } });
    expect(
      await post("/signup", JSON.stringify({ email: uniqueEmail(), password: "x".repeat(73) })),
    ).toMatchObject({ status: 400, body: { code: "validation_failed" } });
    expect(
      await post("/signup", JSON.stringify({ email: uniqueEmail(), password: "ñ".repeat(37) })),
    ).toMatchObject({ status: 400, body: { code: "validation_failed" } }); // 74 bytes
    expect(
      await post("/signup", JSON.stringify({ email: uniqueEmail(), password: "password123" })),
    ).toMatchObject({
      status: 422,
      body: { code: "weak_password", weak_password: { reasons: ["pwned"] } },
    });
    expect(await post("/signup", JSON.stringify({ email: uniqueEmail() }))).toMatchObject({
      status: 400,
      body: { code: "validation_failed", message: "Signup requires a valid password" },
    });
    expect(await post("/signup", JSON.stringify({ password: PASSWORD }))).toMatchObject({
      status: 422,
      body: { code: "anonymous_provider_disabled" },
    });
    // A field of another type is unreadable JSON, as GoTrue reads a body into typed fields:
    // never an absent field.
    for (const body of [
      { email: 123, password: PASSWORD },
      { email: ["a@b.example"], password: PASSWORD },
      { email: uniqueEmail(), password: PASSWORD, data: "text" },
      { phone: 15555550100, password: PASSWORD },
      { email: uniqueEmail(), password: 12345678 },
      {
        email: uniqueEmail(),
        password: PASSWORD,
        code_challenge: 5,
        code_challenge_method: "s256",
      },
    ])
      expect(await post("/signup", JSON.stringify(body))).toMatchObject({
        status: 400,
        body: { code: "bad_json" },
      });
    // A number beyond a float64's range is unreadable JSON to GoTrue, never stored as null.
    for (const data of ['{"a":1e400}', '{"a":{"b":[-1e999]}}']) {
      const email = uniqueEmail("huge-number");
      expect(
        await post("/signup", `{"email":"${email}","password":"${PASSWORD}","data":${data}}`),
      ).toMatchObject({ status: 400, body: { code: "bad_json" } });
      expect(
        await count("SELECT count(*)::int AS n FROM auth.users WHERE email = $1", [email]),
      ).toBe(0);
    }
    // GoTrue's two messages for a code challenge (pkce.go): its length first, then its
    // characters; both before the method is read.
    const lengthMessage = "code challenge has to be between 43 and 128 characters";
    const charactersMessage =
      "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes";
    for (const [challenge, method, message] of [
      ["short", "s256", lengthMessage],
      ["a".repeat(129), "plain", lengthMessage],
      ["short!", "bogus", lengthMessage],
      [`${"a".repeat(42)}!`, "s256", charactersMessage],
      [`${"a".repeat(42)}+`, "bogus", charactersMessage],
    ])
      expect([
        challenge,
        await post(
          "/signup",
          JSON.stringify({
            email: uniqueEmail(),
            password: PASSWORD,
            code_challenge: challenge,
            code_challenge_method: method,
          }),
        ),
      ]).toEqual([
        challenge,
        expect.objectContaining({
          status: 400,
          body: expect.objectContaining({ code: "validation_failed", msg: message }),
        }),
      ]);
    expect(
      await post("/token?grant_type=password", JSON.stringify({ email: 42, password: [] })),
    ).toMatchObject({ status: 400 });
    // GoTrue's messages for an address: none, too long, and recovery's own for none.
    expect(
      await post(
        "/signup",
        JSON.stringify({ email: `${"a".repeat(250)}@x.example`, password: PASSWORD }),
      ),
    ).toMatchObject({
      status: 400,
      body: { code: "validation_failed", message: "An email address is too long" },
    });
    expect(await post("/recover", JSON.stringify({ email: "" }))).toMatchObject({
      status: 400,
      body: { code: "validation_failed", message: "Password recovery requires an email" },
    });
    // GoTrue's password grant: no address at all is "missing email or phone"; an address it
    // cannot find, well-formed or not, is the invalid credentials of any unknown account.
    expect(
      await post("/token?grant_type=password", JSON.stringify({ password: PASSWORD })),
    ).toMatchObject({
      status: 400,
      body: { code: "validation_failed", message: "missing email or phone" },
    });
    expect(
      await post(
        "/token?grant_type=password",
        JSON.stringify({ email: "not-an-email", password: PASSWORD }),
      ),
    ).toMatchObject({ status: 400, body: { code: "invalid_credentials" } });
    expect(
      await post("/token?grant_type=refresh_token", JSON.stringify({ refresh_token: "short" })),
    ).toMatchObject({ status: 400, body: { code: "validation_failed" } });
    // One of ours in form (the base64url of 32 bytes), but unknown.
    expect(
      await post(
        "/token?grant_type=refresh_token",
        JSON.stringify({ refresh_token: `${"x".repeat(42)}w` }),
      ),
    ).toMatchObject({ status: 400, body: { code: "refresh_token_not_found" } });
    expect(await post("/token?grant_type=magic", "{}")).toMatchObject({
      status: 400,
      body: { code: "invalid_credentials" },
    });
    expect(
      await post(
        "/token?grant_type=pkce",
        JSON.stringify({ auth_code: "nope", code_verifier: "x" }),
      ),
    ).toMatchObject({ status: 404, body: { code: "flow_state_not_found" } });
    expect(
      await post("/verify", JSON.stringify({ type: "signup", token_hash: "f".repeat(56) })),
    ).toMatchObject({ status: 403, body: { code: "otp_expired" } });
    expect(
      await post("/verify", JSON.stringify({ type: "carrier-pigeon", token_hash: "x" })),
    ).toMatchObject({ status: 400 });
    for (const type of ["constructor", "__proto__", "toString"]) {
      expect(
        await post("/verify", JSON.stringify({ type, token_hash: "f".repeat(56) })),
      ).toMatchObject({ status: 400, body: { code: "validation_failed" } });
      // A link is a browser navigation: it lands on the site with the error, signing nobody in.
      const link = await fetch(`${server.url}/auth/v1/verify?token=x&type=${type}`, {
        redirect: "manual",
      });
      expect(link.status).toBe(303);
      const location = link.headers.get("location") ?? "";
      expect(location).toMatch(/error=/);
      expect(location).not.toMatch(/access_token|[?&]code=/);
      expect(location).toMatch(/error_code=validation_failed/);
    }
    expect(
      await post(
        "/token?grant_type=pkce",
        JSON.stringify({ auth_code: "-".repeat(36), code_verifier: "x".repeat(56) }),
      ),
    ).toMatchObject({ status: 404, body: { code: "flow_state_not_found" } });
    // Text jsonb cannot store (NUL, unpaired surrogates) is refused, and nothing is written.
    for (const data of [{ a: "\u0000" }, { a: ["\ud800"] }, { "\udc00": 1 }]) {
      const email = uniqueEmail("unstorable");
      expect(
        await post("/signup", JSON.stringify({ email, password: PASSWORD, data })),
      ).toMatchObject({ status: 400, body: { code: "validation_failed" } });
      expect(
        await count("SELECT count(*)::int AS n FROM auth.users WHERE email = $1", [email]),
      ).toBe(0);
    }
    expect(await post("/recover", JSON.stringify({ email: "nope" }))).toMatchObject({
      status: 400,
      body: { code: "validation_failed" },
    });
    expect(
      await post("/resend", JSON.stringify({ email: uniqueEmail(), type: "whatever" })),
    ).toMatchObject({ status: 400, body: { code: "validation_failed" } });
    expect(await post("/resend", JSON.stringify({ email: uniqueEmail(), type: 5 }))).toMatchObject({
      status: 400,
      body: { code: "bad_json" },
    });
    expect(
      await post(
        "/signup",
        JSON.stringify({ email: uniqueEmail(), password: PASSWORD, data: "x".repeat(70_000) }),
      ),
    ).toMatchObject({
      status: 413,
      body: {
        code: "request_entity_too_large",
        message: "Request body too large (max 65536 bytes)",
      },
    });
    expect(await post("/otp", JSON.stringify({ email: "not-an-address" }))).toMatchObject({
      status: 400,
      body: { code: "validation_failed" },
    });
    expect(await post("/otp", JSON.stringify({ phone: "12" }))).toMatchObject({
      status: 400,
      body: { code: "phone_provider_disabled" },
    });
    expect(
      await post("/otp", JSON.stringify({ email: uniqueEmail(), create_user: "yes" })),
    ).toMatchObject({ status: 400, body: { code: "bad_json" } });
    const verifyGet = await fetch(`${server.url}/auth/v1/verify?type=signup`, {
      redirect: "manual",
    });
    expect(verifyGet.status).toBe(400);
    const badLink = await followLink(
      `${server.url}/auth/v1/verify?token=${"a".repeat(56)}&type=signup&redirect_to=${encodeURIComponent("https://evil.example/steal")}`,
    );
    expect(badLink.status).toBe(303);
    expect(badLink.location.origin).toBe(server.url); // not redirected off-site
    expect(badLink.fragment.get("error_code")).toBe("otp_expired");
  });
});
