// What /rest/v1 refuses before the database, to a member on aal2: a read whose size would reach one
// of PostgreSQL's limits (a select list over 1664 columns, too many filters) is PostgREST's 400
// PGRST100, never the database's 500; and a token this deployment's key signed for another
// deployment (its `iss`) is refused as /auth/v1 and /functions/v1 refuse it.
import type { SupabaseClient } from "@supabase/supabase-js";
import { decodeJwt } from "jose";
import { beforeAll, expect, it } from "vitest";
import { signJwt } from "../security/tokens.ts";
import { TEST_JWT_SECRET } from "../../tests/support/app.ts";
import { describeAuthSuite } from "../../tests/support/auth-suite.ts";
import { teamMember } from "../../tests/support/team.ts";
import { READABLE } from "./readable.ts";
import { fromDatabaseError } from "./errors.ts";
import { MAX_FILTER_TERMS } from "./read-query.ts";

it("answers a program limit the database still meets (SQLSTATE class 54) as the request's 400", () => {
  const limits: [string, string][] = [
    ["54000", "index row size exceeds maximum"],
    ["54001", "stack depth limit exceeded"],
    ["54011", "target lists can have at most 1664 entries"],
    ["54023", "cannot pass more than 100 arguments to a function"],
  ];
  for (const [code, message] of limits)
    expect(fromDatabaseError(Object.assign(new Error(message), { code }), false)).toMatchObject({
      status: 400,
      code,
      message,
    });
});

describeAuthSuite("rest: requests refused before the database", (suite) => {
  const { server } = suite;
  let member: SupabaseClient;
  let token: string;
  /** An admin's token, for the relations only admins read (readable.ts adminOnly). */
  let adminToken: string;

  beforeAll(async () => {
    ({ supabase: member } = await teamMember(suite, "limits-member", { aal2: true }));
    token = (await member.auth.getSession()).data.session!.access_token;
    const { supabase: admin } = await teamMember(suite, "limits-admin", {
      aal2: true,
      role: "admin",
    });
    adminToken = (await admin.auth.getSession()).data.session!.access_token;
  });

  const read = (query: string, accept = "application/json", bearer = token) =>
    fetch(`${server.url}/rest/v1/${query}`, {
      headers: { apikey: server.anonKey, authorization: `Bearer ${bearer}`, accept },
    });

  const refusal = async (res: Response) => [
    res.status,
    ((await res.json()) as { code: string }).code,
  ];

  it("refuses a select list naming a column twice, or over the database's 1664 columns, on every view", async () => {
    for (const name of Object.keys(READABLE)) {
      const [column] = Object.keys(READABLE[name]!.columns);
      const bearer = READABLE[name]!.adminOnly ? adminToken : token;
      const many = Array.from({ length: 1700 }, () => column).join(",");
      // A list of a long name passes Node's 16 KiB of request line and headers first: refused
      // for that (431) before anything reads it.
      const status = many.length > 16_000 ? 431 : 400;
      for (const accept of ["application/json", "application/vnd.pgrst.object+json", "text/csv"]) {
        const res = await read(`${name}?select=${many}&limit=1`, accept, bearer);
        expect([name, accept, ...(await refusal(res))]).toEqual([name, accept, status, "PGRST100"]);
      }
      const twice = await read(`${name}?select=${column},${column}`, "application/json", bearer);
      expect([name, await twice.json()]).toEqual([
        name,
        {
          code: "PGRST100",
          details: `${column} is selected more than once`,
          hint: null,
          message: '"failed to parse select parameter"',
        },
      ]);
    }
  });

  it("refuses an order naming a column twice, and more filters than a read may hold", async () => {
    const order = await read(`leads?order=${Array(2000).fill("id").join(",")}`);
    expect(await refusal(order)).toEqual([400, "PGRST100"]);
    const filters = (n: number) => Array(n).fill("kind=neq.x").join("&");
    expect((await read(`leads?select=id&limit=1&${filters(MAX_FILTER_TERMS)}`)).status).toBe(200);
    expect(await refusal(await read(`leads?${filters(MAX_FILTER_TERMS + 1)}`))).toEqual([
      400,
      "PGRST100",
    ]);
    const terms = (n: number) => `or=(${Array(n).fill("kind.eq.x").join(",")})`;
    expect(await refusal(await read(`leads?${terms(MAX_FILTER_TERMS + 1)}`))).toEqual([
      400,
      "PGRST100",
    ]);
    expect(await refusal(await read(`leads?kind=neq.x&${terms(MAX_FILTER_TERMS)}`))).toEqual([
      400,
      "PGRST100",
    ]);
  });

  it("refuses a token in PostgREST's words: not yet valid, not three parts, or not ours", async () => {
    const key = new TextEncoder().encode(TEST_JWT_SECRET);
    const now = Math.floor(Date.now() / 1000);
    const early = signJwt({ ...decodeJwt(token), nbf: now + 600 }, key);
    const refusals: [string, string, string][] = [
      [early, "PGRST303", "JWT not yet valid"],
      ["abc", "PGRST301", "Expected 3 parts in JWT; got 1"],
      ["a.b.c.d", "PGRST301", "Expected 3 parts in JWT; got 4"],
      [`${token}x`, "PGRST301", "No suitable key or wrong key type"],
    ];
    for (const [bearer, code, message] of refusals) {
      const res = await read("leads?select=id&limit=1", "application/json", bearer);
      expect([res.status, await res.json()]).toEqual([
        401,
        { code, details: null, hint: null, message },
      ]);
      expect(res.headers.get("www-authenticate")).toBe(
        `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
      );
    }
  });

  it("refuses a token of another deployment signed with this one's key, as /auth/v1 and /functions/v1 do", async () => {
    const claims = decodeJwt(token);
    const foreign = signJwt(
      { ...claims, iss: "https://another.example/auth/v1" },
      new TextEncoder().encode(TEST_JWT_SECRET),
    );
    // The same claims under our own issuer are accepted: only the issuer differs.
    const ours = signJwt(claims, new TextEncoder().encode(TEST_JWT_SECRET));
    expect((await read("leads?select=id&limit=1", "application/json", ours)).status).toBe(200);
    const rest = await read("leads?select=id&limit=1", "application/json", foreign);
    expect(rest.status).toBe(401);
    expect(await rest.json()).toEqual({
      code: "PGRST303",
      details: null,
      hint: null,
      message: "JWT issuer not accepted",
    });
    const elsewhere = (path: string) =>
      fetch(`${server.url}${path}`, {
        headers: { apikey: server.anonKey, authorization: `Bearer ${foreign}` },
      });
    expect((await elsewhere("/auth/v1/user")).status).toBe(403);
    expect((await elsewhere("/functions/v1/sessions")).status).toBe(401);
  });
});
