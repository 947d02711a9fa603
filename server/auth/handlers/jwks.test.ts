// GET /.well-known/jwks.json and the signing keys of GOTRUE_JWT_KEYS, through the real client:
// getClaims verifies ES256 and RS256 access tokens locally against our public keys, and falls
// back to GET /user with the HS256 default; forged tokens are refused by /auth and /rest alike.
import crypto from "node:crypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { decodeJwt, decodeProtectedHeader, SignJWT } from "jose";
import { expect, it } from "vitest";
import { uniqueIp, type ApiServer } from "../../../tests/support/api-server.ts";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { keyObject, privateJwk } from "../../../tests/support/jwt-keys.ts";

const PRIVATE_PARTS = ["d", "p", "q", "dp", "dq", "qi", "k"];

/** A client whose requests are listed by path (to see whether getClaims asked GET /user). */
function watchedClient(server: ApiServer): { supabase: SupabaseClient; paths: string[] } {
  const paths: string[] = [];
  const supabase = server.client({
    ip: uniqueIp(),
    fetch: (input, init) => {
      paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return fetch(input, init);
    },
  });
  return { supabase, paths };
}

/** The claims of a real access token, signed again under another header and key. */
const resign = (token: string, header: { alg: string; kid?: string }, key: crypto.KeyObject) =>
  new SignJWT(decodeJwt(token)).setProtectedHeader({ ...header, typ: "JWT" }).sign(key);

/** The claims of a real access token under a header that says `none`, with no signature. */
const unsigned = (token: string, header: object) =>
  `${Buffer.from(JSON.stringify({ ...header, typ: "JWT" })).toString("base64url")}.${token.split(".")[1]}.`;

for (const alg of ["ES256", "RS256"] as const) {
  const signing = privateJwk(alg);
  // The key signing before a rotation: kept to verify the tokens it signed until they expire.
  const previous = privateJwk(alg === "ES256" ? "RS256" : "ES256", undefined, ["verify"]);

  describeAuthSuite(
    `auth: ${alg} signing keys`,
    ({ server, auth, confirmedUser }) => {
      const user = async (token: string) => {
        const res = await auth("/user", { headers: { authorization: `Bearer ${token}` } });
        return { status: res.status, code: (await res.json()).code as string | undefined };
      };
      const rest = async (token: string) => {
        const res = await fetch(`${server.url}/rest/v1/newsletter_subscribers`, {
          method: "POST",
          headers: {
            apikey: server.anonKey,
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            "x-forwarded-for": uniqueIp(),
          },
          body: JSON.stringify({ email: `${crypto.randomUUID()}@example.com` }),
        });
        return { status: res.status, code: (await res.json().catch(() => ({}))).code };
      };

      it("publishes the public keys only, cacheable, as GoTrue does", async () => {
        const res = await auth("/.well-known/jwks.json");
        expect(res.status).toBe(200);
        expect(res.headers.get("cache-control")).toBe("public, max-age=600");
        const { keys } = (await res.json()) as { keys: Record<string, unknown>[] };
        expect(keys.map((k) => [k.kid, k.alg, k.use, k.key_ops])).toEqual([
          [signing.kid, alg, "sig", ["verify"]],
          [previous.kid, previous.alg, "sig", ["verify"]],
        ]);
        for (const key of keys)
          for (const part of PRIVATE_PARTS) expect(key).not.toHaveProperty(part);
        const material = alg === "ES256" ? ["crv", "x", "y"] : ["n", "e"];
        for (const field of material)
          expect(keys[0]![field]).toBe(signing[field as keyof typeof signing]);
      });

      it("keeps the API keys HS256 under JWT_SECRET: the service-role key still opens the admin API", async () => {
        expect(decodeProtectedHeader(server.serviceRoleKey)).toEqual({ alg: "HS256", typ: "JWT" });
        const { error } = await server.admin().auth.admin.listUsers({ page: 1, perPage: 1 });
        expect(error).toBeNull();
      });

      it("signs access tokens with the signing key; getClaims verifies them locally against the JWKS", async () => {
        const { session } = await confirmedUser(alg.toLowerCase());
        expect(decodeProtectedHeader(session.access_token)).toEqual({
          alg,
          kid: signing.kid,
          typ: "JWT",
        });
        const { supabase, paths } = watchedClient(server);
        const { data, error } = await supabase.auth.getClaims(session.access_token);
        expect(error).toBeNull();
        expect(data?.header).toEqual({ alg, kid: signing.kid, typ: "JWT" });
        expect(data?.claims).toMatchObject({
          sub: session.user.id,
          role: "authenticated",
          iss: `${server.url}/auth/v1`,
          session_id: expect.any(String),
        });
        // A token of the previous key verifies too (rotation), locally and at the server.
        const old = await resign(
          session.access_token,
          { alg: previous.alg, kid: previous.kid },
          keyObject(previous),
        );
        expect((await supabase.auth.getClaims(old)).error).toBeNull();
        expect(await user(old)).toEqual({ status: 200, code: undefined });
        // The same kid over another key's signature: refused by the client on its own.
        const stray = await resign(
          session.access_token,
          { alg, kid: signing.kid },
          keyObject(privateJwk(alg)),
        );
        const refused = await supabase.auth.getClaims(stray);
        expect(refused.data).toBeNull();
        expect(refused.error?.name).toBe("AuthInvalidJwtError");
        // All of it without asking the server anything but the public keys (which auth-js caches
        // for every client of this host, so a suite that ran before may have fetched them).
        expect(paths.filter((path) => path !== "/auth/v1/.well-known/jwks.json")).toEqual([]);
        // The session's own token is accepted by /auth and /rest.
        expect(await user(session.access_token)).toEqual({ status: 200, code: undefined });
        expect(await rest(session.access_token)).toMatchObject({ status: 201 });
      });

      it("refuses tokens of other keys, alg none, and HS256 forged with the public key as secret", async () => {
        const { session } = await confirmedUser(`forged-${alg.toLowerCase()}`);
        const token = session.access_token;
        const pem = crypto
          .createPublicKey(keyObject(signing))
          .export({ format: "pem", type: "spki" })
          .toString();
        const publicJwkText = JSON.stringify(
          crypto.createPublicKey(keyObject(signing)).export({ format: "jwk" }),
        );
        const forged = [
          await resign(token, { alg, kid: signing.kid }, keyObject(privateJwk(alg))),
          await resign(token, { alg, kid: "not-in-the-set" }, keyObject(privateJwk(alg))),
          await resign(token, { alg }, keyObject(signing)),
          unsigned(token, { alg: "none", kid: signing.kid }),
          unsigned(token, { alg: "none" }),
          await resign(
            token,
            { alg: "HS256", kid: signing.kid },
            crypto.createSecretKey(Buffer.from(pem)),
          ),
          await resign(token, { alg: "HS256" }, crypto.createSecretKey(Buffer.from(pem))),
          await resign(
            token,
            { alg: "HS256", kid: signing.kid },
            crypto.createSecretKey(Buffer.from(publicJwkText)),
          ),
        ];
        for (const bad of forged) {
          expect(await user(bad)).toEqual({ status: 403, code: "bad_jwt" });
          expect(await rest(bad)).toEqual({ status: 401, code: "PGRST301" });
        }
      });
    },
    { GOTRUE_JWT_KEYS: JSON.stringify([signing, previous]) },
  );
}

describeAuthSuite("auth: HS256 signing by default", ({ server, auth, confirmedUser }) => {
  it("publishes no keys (the secret is never shown); getClaims asks GET /user instead", async () => {
    const res = await auth("/.well-known/jwks.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=600");
    expect(await res.json()).toEqual({ keys: [] });

    const { session } = await confirmedUser("hs256");
    expect(decodeProtectedHeader(session.access_token)).toEqual({ alg: "HS256", typ: "JWT" });
    const { supabase, paths } = watchedClient(server);
    const { data, error } = await supabase.auth.getClaims(session.access_token);
    expect(error).toBeNull();
    expect(data?.claims).toMatchObject({ sub: session.user.id, role: "authenticated" });
    expect(paths).toContain("/auth/v1/user");

    const other = await resign(
      session.access_token,
      { alg: "HS256" },
      crypto.createSecretKey(crypto.randomBytes(32)),
    );
    const refused = await supabase.auth.getClaims(other);
    expect(refused.data).toBeNull();
    expect(refused.error).toMatchObject({ status: 403, code: "bad_jwt" });
  });
});
