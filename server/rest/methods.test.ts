// The methods /rest/v1 answers on each path, as PostgREST answers them: OPTIONS tells a
// relation's or a function's methods in Allow (Response.hs respondInfo), a function that writes
// is refused to GET and HEAD by the read-only transaction they run in (25006), and a method no
// action takes is PostgREST's 405 (PGRST101 on /rpc/, PGRST117 on a relation).
import type { SupabaseClient } from "@supabase/supabase-js";
import { beforeAll, expect, it } from "vitest";
import { describeAuthSuiteEachDatabase } from "../../tests/support/auth-suite.ts";
import { teamMember } from "../../tests/support/team.ts";
import { REST_RELATIONS, relationMethods } from "./methods.ts";

describeAuthSuiteEachDatabase("rest: methods", (suite) => {
  const { server, ctx } = suite;
  let member: SupabaseClient;
  let memberToken: string;

  beforeAll(async () => {
    ({ supabase: member } = await teamMember(suite, "methods-member", { aal2: true }));
    memberToken = (await member.auth.getSession()).data.session!.access_token;
  });

  const call = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/rest/v1${path}`, {
      method,
      headers: { apikey: server.anonKey, ...headers },
    });
    const text = await res.text();
    return { status: res.status, allow: res.headers.get("allow"), text, res };
  };

  /**
   * PostgREST's Allow for a relation, computed as its schema cache does from the catalog
   * (SchemaCache.hs: insertable, updatable, deletable; Response.hs allowH).
   */
  async function allowFromCatalog(name: string): Promise<string> {
    const [rel] = await ctx.db.query<{
      insertable: boolean;
      updatable: boolean;
      deletable: boolean;
      has_pk: boolean;
    }>(
      `SELECT
         c.relkind IN ('r','p') OR (c.relkind IN ('v','f') AND (pg_relation_is_updatable(c.oid::regclass, TRUE) & 8) = 8) AS insertable,
         c.relkind IN ('r','p') OR (c.relkind IN ('v','f') AND (pg_relation_is_updatable(c.oid::regclass, TRUE) & 4) = 4) AS updatable,
         c.relkind IN ('r','p') OR (c.relkind IN ('v','f') AND (pg_relation_is_updatable(c.oid::regclass, TRUE) & 16) = 16) AS deletable,
         EXISTS (
           -- A table's own primary key; a view's is its one base table's, when it shows every
           -- column of it (PostgREST follows a view's columns to the keys they come from).
           SELECT 1 FROM pg_constraint p
           WHERE p.contype = 'p' AND (p.conrelid = c.oid OR (
             c.relkind = 'v'
             AND (SELECT count(*) FROM information_schema.view_table_usage u
                  WHERE u.view_schema = 'public' AND u.view_name = c.relname) = 1
             AND p.conrelid IN (SELECT to_regclass(format('%I.%I', u.table_schema, u.table_name))
                               FROM information_schema.view_table_usage u
                               WHERE u.view_schema = 'public' AND u.view_name = c.relname)
             AND NOT EXISTS (
               SELECT 1 FROM pg_attribute a
               WHERE a.attrelid = p.conrelid AND a.attnum = ANY (p.conkey) AND NOT EXISTS (
                 SELECT 1 FROM pg_attribute v WHERE v.attrelid = c.oid AND v.attname = a.attname)))))
         AS has_pk
       FROM pg_class c WHERE c.oid = to_regclass('public.' || quote_ident($1))`,
      [name],
    );
    expect(rel, `public.${name} exists`).toBeDefined();
    return [
      "OPTIONS,GET,HEAD",
      ...(rel!.insertable ? ["POST"] : []),
      ...(rel!.insertable && rel!.updatable && rel!.has_pk ? ["PUT"] : []),
      ...(rel!.updatable ? ["PATCH"] : []),
      ...(rel!.deletable ? ["DELETE"] : []),
    ].join(",");
  }

  it.each([
    "newsletter_subscribers",
    "demo_requests",
    "lead_states",
    "lead_state_changes",
    "lead_notes",
    "webhook_endpoints",
    "webhook_deliveries",
    "leads",
    "emails",
    "subscribers",
  ])("answers OPTIONS on %s with 200 and the methods its relation takes", async (name) => {
    const answer = await call("OPTIONS", `/${name}`);
    expect([answer.status, answer.allow, answer.text]).toEqual([
      200,
      await allowFromCatalog(name),
      "",
    ]);
  });

  it("answers OPTIONS on the statistics as on a view, and on an unknown name PostgREST's 404", async () => {
    const stats = await call("OPTIONS", "/page_stats");
    expect([stats.status, stats.allow]).toEqual([200, "OPTIONS,GET,HEAD"]);
    const unknown = await call("OPTIONS", "/no_such_table");
    expect([unknown.status, unknown.allow, JSON.parse(unknown.text)]).toEqual([
      404,
      null,
      {
        code: "PGRST205",
        details: null,
        hint: null,
        message: "Could not find the table 'public.no_such_table' in the schema cache",
      },
    ]);
  });

  it("checks the API key and the token before telling the methods, as the gateway and PostgREST do", async () => {
    const noKey = await fetch(`${server.url}/rest/v1/leads`, { method: "OPTIONS" });
    expect([noKey.status, await noKey.json()]).toEqual([
      401,
      {
        message: "No API key found in request",
        hint: "No `apikey` request header or url param was found.",
      },
    ]);
    const badToken = await call("OPTIONS", "/leads", { authorization: "Bearer not.a.token" });
    expect([badToken.status, JSON.parse(badToken.text).code]).toEqual([401, "PGRST301"]);
  });

  it("grants no other origin anything on a preflight: there is no CORS here", async () => {
    const preflight = await fetch(`${server.url}/rest/v1/leads`, {
      method: "OPTIONS",
      headers: {
        origin: "https://elsewhere.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "apikey, authorization",
      },
    });
    await preflight.arrayBuffer();
    const granted = [...preflight.headers.keys()].filter((h) => h.startsWith("access-control-"));
    expect(granted).toEqual([]);
  });

  it("answers OPTIONS on a function found by its parameters with the methods of a function that writes", async () => {
    const found = await call("OPTIONS", `/rpc/resend_email?email_id=${crypto.randomUUID()}`);
    expect([found.status, found.allow, found.text]).toEqual([200, "OPTIONS,POST", ""]);
    // A function is found by its name and the parameters the query names, as for GET.
    const bare = await call("OPTIONS", "/rpc/resend_email");
    expect([bare.status, JSON.parse(bare.text)]).toEqual([
      404,
      {
        code: "PGRST202",
        message:
          "Could not find the function public.resend_email without parameters in the schema cache",
        details:
          "Searched for the function public.resend_email without parameters, but no matches were found in the schema cache.",
        hint: "Perhaps you meant to call the function public.resend_email(email_id)",
      },
    ]);
    expect((await call("OPTIONS", "/rpc/nothing_here")).status).toBe(404);
  });

  it("refuses GET and HEAD on a function that writes as its read-only transaction would, after the usual checks", async () => {
    const id = crypto.randomUUID();
    const anonymous = await suite.client().rpc("resend_email", { email_id: id }, { get: true });
    expect([anonymous.status, anonymous.error?.code]).toEqual([401, "42501"]);
    const asMember = await member.rpc("resend_email", { email_id: id }, { get: true });
    expect([asMember.status, asMember.error]).toEqual([
      405,
      expect.objectContaining({
        code: "25006",
        details: null,
        hint: null,
        message: "cannot execute UPDATE in a read-only transaction",
      }),
    ]);
    const head = await call("HEAD", `/rpc/resend_email?email_id=${id}`, {
      authorization: `Bearer ${memberToken}`,
    });
    expect([head.status, head.allow, head.text]).toEqual([405, "OPTIONS,POST", ""]);
    const notUuid = await member.rpc("resend_email", { email_id: "x" }, { get: true });
    expect([notUuid.status, notUuid.error?.code]).toEqual([400, "22P02"]);
    // Parameters in the query are the call's, found as a POST finds them (without a JSON body).
    const unknown = await member.rpc("resend_email", { id }, { get: true });
    expect([unknown.status, unknown.error]).toEqual([
      404,
      expect.objectContaining({
        code: "PGRST202",
        message: "Could not find the function public.resend_email(id) in the schema cache",
        details:
          "Searched for the function public.resend_email with parameter id, but no matches were found in the schema cache.",
      }),
    ]);
  });

  it("refuses a method no action takes with PostgREST's 405, naming the methods that are", async () => {
    const onRpc = await call("PUT", "/rpc/resend_email");
    expect([onRpc.status, onRpc.allow, JSON.parse(onRpc.text)]).toEqual([
      405,
      "OPTIONS,POST",
      { code: "PGRST101", details: null, hint: null, message: "Cannot use the PUT method on RPC" },
    ]);
    const onView = await call("PROPFIND", "/leads");
    expect([onView.status, onView.allow, JSON.parse(onView.text)]).toEqual([
      405,
      "OPTIONS,GET,HEAD",
      { code: "PGRST117", details: null, hint: null, message: "Unsupported HTTP method: PROPFIND" },
    ]);
    const deeper = await call("OPTIONS", "/leads/extra");
    expect([deeper.status, JSON.parse(deeper.text).code]).toEqual([404, "PGRST125"]);
  });

  it("answers every method on every relation it exposes as the relation's, never as a name it lacks", async () => {
    // What PostgreSQL calls each relation (a view or a table); the statistics are computed rows
    // answered as a view.
    const kinds = new Map(
      (
        await ctx.db.query<{ name: string; relkind: string }>(
          `SELECT relname AS name, relkind FROM pg_class
           WHERE relnamespace = 'public'::regnamespace AND relname = ANY ($1::text[])`,
          [REST_RELATIONS],
        )
      ).map(({ name, relkind }) => [name, relkind === "v" ? "view" : "table"]),
    );
    for (const [role, bearer] of [
      ["anon", undefined],
      ["member", memberToken],
    ] as const) {
      for (const name of REST_RELATIONS) {
        for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]) {
          const body = ["POST", "PUT", "PATCH"].includes(method) ? "{}" : undefined;
          const res = await fetch(`${server.url}/rest/v1/${name}`, {
            method,
            body,
            headers: {
              apikey: server.anonKey,
              ...(bearer && { authorization: `Bearer ${bearer}` }),
              ...(body && { "content-type": "application/json" }),
            },
          });
          const text = await res.text();
          const answer = [role, name, method, res.status];
          expect(answer, text).not.toContainEqual(404);
          expect(res.status, `${answer.join(" ")}: ${text}`).toBeLessThan(500);
          if (relationMethods(name)!.split(",").includes(method)) continue;
          // A method the relation does not take is one no role was granted.
          expect([...answer, JSON.parse(text)]).toEqual([
            role,
            name,
            method,
            role === "anon" ? 401 : 403,
            {
              code: "42501",
              details: null,
              hint: null,
              message: `permission denied for ${kinds.get(name) ?? "view"} ${name}`,
            },
          ]);
        }
      }
    }
  });
});
