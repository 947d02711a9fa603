// GET /functions/v1/sessions through supabase-js: a person's own sessions, the current one flagged;
// the anon key and a signed-out session's token are refused; nobody sees another's sessions.
import type { SupabaseClient } from "@supabase/supabase-js";
import { FunctionsHttpError } from "@supabase/supabase-js";
import { expect, it } from "vitest";
import type { AccountSession } from "../../common/accounts.ts";
import { FUNCTIONS } from "../../common/functions.ts";
import { uniqueIp } from "../../tests/support/api-server.ts";
import { PASSWORD } from "../../tests/support/auth.ts";
import { describeAuthSuite } from "../../tests/support/auth-suite.ts";

describeAuthSuite("sessions function", ({ server, confirmedUser }) => {
  const listSessions = async (supabase: SupabaseClient) => {
    const { data, error } = await supabase.functions.invoke<{ sessions: AccountSession[] }>(
      FUNCTIONS.sessions,
      { method: "GET" },
    );
    if (!error) return { status: 200, sessions: data!.sessions };
    if (error instanceof FunctionsHttpError) {
      const res = error.context as Response;
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    }
    throw error;
  };
  const signInAgain = async (email: string) => {
    const supabase = server.client({ ip: uniqueIp() });
    const { error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    return supabase;
  };

  it("lists the caller's sessions, the current one flagged, with where they come from", async () => {
    const { email, supabase: first, session } = await confirmedUser("sessions");
    const second = await signInAgain(email);
    const res = await listSessions(second);
    expect(res.status).toBe(200);
    // The confirmation link started a session too: three in all.
    expect(res.sessions).toHaveLength(3);
    const current = res.sessions!.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({
      aal: "aal1",
      // Node's fetch names itself "node"; the client address is the one the balancer saw.
      user_agent: "node",
      ip: expect.stringMatching(/^10\./),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.any(String),
    });
    const firstToken = JSON.parse(atob(session.access_token.split(".")[1]!)) as {
      session_id: string;
    };
    expect(res.sessions!.find((s) => s.id === firstToken.session_id)?.current).toBe(false);
    // The first device sees the same three, itself flagged.
    const fromFirst = await listSessions(first);
    expect(fromFirst.sessions).toHaveLength(3);
    expect(fromFirst.sessions?.find((s) => s.current)?.id).toBe(firstToken.session_id);
  });

  it("never shows another person's sessions", async () => {
    const a = await confirmedUser("sessions-a");
    const b = await confirmedUser("sessions-b");
    const idsOf = async (supabase: SupabaseClient) =>
      new Set((await listSessions(supabase)).sessions!.map((s) => s.id));
    const [ofA, ofB] = [await idsOf(a.supabase), await idsOf(b.supabase)];
    // Each: the confirmation link's session and the password sign-in's.
    expect(ofA.size).toBe(2);
    expect(ofB.size).toBe(2);
    expect([...ofA].some((id) => ofB.has(id))).toBe(false);
  });

  it("answers the anon key alone with 401", async () => {
    const res = await listSessions(server.client({ ip: uniqueIp() }));
    expect(res).toEqual({
      status: 401,
      body: { code: "invalid_jwt", message: expect.any(String) },
    });
  });

  it("answers a signed-out session's token with 401, and lists what is left after signing out others", async () => {
    const { email, supabase: first } = await confirmedUser("sessions-out");
    const second = await signInAgain(email);
    const staleToken = (await second.auth.getSession()).data.session!.access_token;
    expect((await first.auth.signOut({ scope: "others" })).error).toBeNull();
    const left = await listSessions(first);
    expect(left.sessions).toEqual([expect.objectContaining({ current: true })]);
    const res = await fetch(`${server.url}/functions/v1/${FUNCTIONS.sessions}`, {
      headers: { apikey: server.anonKey, authorization: `Bearer ${staleToken}` },
    });
    expect(res.status).toBe(401);
  });
});
