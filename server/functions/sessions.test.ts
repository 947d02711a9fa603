// GET /functions/v1/sessions through supabase-js: a person's own sessions, the current one flagged;
// the anon key and a signed-out session's token are refused; nobody sees another's sessions.
// DELETE /functions/v1/sessions/{id}: one chosen session ends (its refresh token too), nobody ends
// another's, and an id that is not the caller's reads as one that does not exist.
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

  const endSession = async (supabase: SupabaseClient, id: string) => {
    const { error } = await supabase.functions.invoke(`${FUNCTIONS.sessions}/${id}`, {
      method: "DELETE",
    });
    if (!error) return { status: 204 };
    const res = (error as FunctionsHttpError).context as Response;
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const sessionIdOf = async (supabase: SupabaseClient) =>
    (
      JSON.parse(
        atob((await supabase.auth.getSession()).data.session!.access_token.split(".")[1]!),
      ) as { session_id: string }
    ).session_id;

  it("ends one chosen session of the caller's: its tokens stop working, the others go on", async () => {
    const { email, supabase: first } = await confirmedUser("sessions-one");
    const second = await signInAgain(email);
    const third = await signInAgain(email);
    const secondId = await sessionIdOf(second);
    const secondRefresh = (await second.auth.getSession()).data.session!.refresh_token;

    expect(await endSession(first, secondId)).toEqual({ status: 204 });
    const left = (await listSessions(first)).sessions!.map((s) => s.id);
    expect(left).not.toContain(secondId);
    expect(left).toHaveLength(3); // the confirmation link's, the first's and the third's
    expect((await listSessions(second)).status).toBe(401);
    const refreshed = await server.client({ ip: uniqueIp() }).auth.refreshSession({
      refresh_token: secondRefresh,
    });
    expect(refreshed.error?.code).toBe("refresh_token_not_found");
    expect((await third.auth.getUser()).error).toBeNull();

    // Ended already: nothing left of that id.
    expect(await endSession(first, secondId)).toMatchObject({
      status: 404,
      body: { code: "not_found" },
    });
    // Its own session too: then it is signed out.
    expect(await endSession(third, await sessionIdOf(third))).toEqual({ status: 204 });
    expect((await listSessions(third)).status).toBe(401);
  });

  it("never ends another person's session, and says so as for an id nobody has", async () => {
    const a = await confirmedUser("sessions-end-a");
    const b = await confirmedUser("sessions-end-b");
    const ofB = await sessionIdOf(b.supabase);
    const foreign = await endSession(a.supabase, ofB);
    const unknown = await endSession(a.supabase, "01234567-89ab-7def-8123-456789abcdef");
    expect(foreign).toEqual(unknown);
    expect(foreign).toMatchObject({ status: 404 });
    expect(await endSession(a.supabase, "not-a-uuid")).toEqual(unknown);
    expect((await b.supabase.auth.getUser()).error).toBeNull();
    // Without a session of one's own, nothing at all.
    expect(await endSession(server.client({ ip: uniqueIp() }), ofB)).toMatchObject({
      status: 401,
      body: { code: "invalid_jwt" },
    });
    expect((await b.supabase.auth.getUser()).error).toBeNull();
  });
});
