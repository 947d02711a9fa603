// The workspace's own events in the audit log, as the Security tab reads them (the `audit_log`
// view, admins on aal2 only): a webhook endpoint added, changed and removed, a delivery resent,
// a CSV export, each with the admin or member who did it, their address and browser; what fails
// or changes nothing leaves no entry.
import type { SupabaseClient } from "@supabase/supabase-js";
import { beforeAll, expect, it } from "vitest";
import { uniqueIp } from "../../tests/support/api-server.ts";
import { describeAuthSuite } from "../../tests/support/auth-suite.ts";
import { teamMember } from "../../tests/support/team.ts";

type Row = {
  action: string;
  log_type: string;
  actor: string;
  actor_id: string;
  ip_address: string;
  user_agent: string;
  traits: Record<string, unknown> | null;
  created_at: string;
};

describeAuthSuite("rest: the workspace's audit log", (suite) => {
  const { server, client, ctx } = suite;
  let admin: SupabaseClient;
  let adminId: string;
  let adminEmail: string;
  let member: SupabaseClient;
  let memberEmail: string;

  beforeAll(async () => {
    ({
      supabase: admin,
      id: adminId,
      email: adminEmail,
    } = await teamMember(suite, "audit-ws-admin", {
      aal2: true,
      role: "admin",
    }));
    ({ supabase: member, email: memberEmail } = await teamMember(suite, "audit-ws-member", {
      aal2: true,
    }));
  });

  /** The workspace's entries of `actor`, oldest first. */
  async function workspaceEntries(actor: string): Promise<Row[]> {
    const { data, error } = await admin
      .from("audit_log")
      .select("*")
      .eq("log_type", "workspace")
      .eq("actor", actor)
      .order("created_at", { ascending: true });
    expect(error).toBeNull();
    return data as Row[];
  }

  const headersOf = async (supabase: SupabaseClient, extra: Record<string, string> = {}) => ({
    apikey: server.anonKey,
    authorization: `Bearer ${(await supabase.auth.getSession()).data.session!.access_token}`,
    ...extra,
  });

  it("records an endpoint added, changed and removed, and a delivery resent, by the admin who did it", async () => {
    const ip = uniqueIp();
    const rest = async (path: string, init: RequestInit) =>
      fetch(`${server.url}/rest/v1/${path}`, {
        ...init,
        headers: await headersOf(admin, {
          "content-type": "application/json",
          prefer: "return=representation",
          "x-forwarded-for": ip,
          "user-agent": "AuditBrowser/2.0",
        }),
      });
    const added = await rest("webhook_endpoints", {
      method: "POST",
      body: JSON.stringify({ url: "https://crm.example/audit", description: "CRM" }),
    });
    expect(added.status).toBe(201);
    const [endpoint] = (await added.json()) as { id: string }[];
    const changed = await rest(`webhook_endpoints?id=eq.${endpoint!.id}`, {
      method: "PATCH",
      body: JSON.stringify({ enabled: false, description: "Old CRM" }),
    });
    expect(changed.status).toBe(200);
    // No such endpoint: nothing changed, nothing logged.
    const missing = await rest(`webhook_endpoints?id=eq.${crypto.randomUUID()}`, {
      method: "PATCH",
      body: JSON.stringify({ enabled: false }),
    });
    expect(missing.status).toBe(200);
    // A refused change (a URL that may not receive events): nothing logged either.
    const refused = await rest(`webhook_endpoints?id=eq.${endpoint!.id}`, {
      method: "PATCH",
      body: JSON.stringify({ url: "ftp://crm.example" }),
    });
    expect(refused.status).toBe(400);
    const [delivery] = await ctx.db.query<{ id: string }>(
      `INSERT INTO public.webhook_deliveries (endpoint_id, lead_id, payload, failed_at)
       VALUES ($1, $2, '{}', now()) RETURNING id`,
      [endpoint!.id, crypto.randomUUID()],
    );
    const resent = await rest("rpc/resend_webhook", {
      method: "POST",
      body: JSON.stringify({ delivery_id: delivery!.id }),
    });
    expect(await resent.json()).toBe(true);
    // A delivery that is not there is not resent, and not logged.
    const unknown = await rest("rpc/resend_webhook", {
      method: "POST",
      body: JSON.stringify({ delivery_id: crypto.randomUUID() }),
    });
    expect(await unknown.json()).toBe(false);
    const removed = await rest(`webhook_endpoints?id=eq.${endpoint!.id}`, { method: "DELETE" });
    expect(removed.status).toBe(200);

    const entries = await workspaceEntries(adminEmail);
    const traits = { endpoint_id: endpoint!.id, endpoint_url: "https://crm.example/audit" };
    expect(entries.map((e) => [e.action, e.traits])).toEqual([
      ["webhook_endpoint_added", traits],
      ["webhook_endpoint_changed", { ...traits, changed: ["description", "enabled"] }],
      ["webhook_delivery_resent", { delivery_id: delivery!.id }],
      ["webhook_endpoint_removed", traits],
    ]);
    for (const e of entries)
      expect(e).toMatchObject({
        actor_id: adminId,
        actor: adminEmail,
        ip_address: ip,
        user_agent: "AuditBrowser/2.0",
      });
  });

  it("records a CSV export with what it selected, before the download starts", async () => {
    const res = await fetch(`${server.url}/rest/v1/leads?select=email&kind=eq.contact`, {
      headers: await headersOf(member, { accept: "text/csv" }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const [entry] = await workspaceEntries(memberEmail);
    expect(entry).toMatchObject({
      action: "csv_exported",
      traits: { relation: "leads", query: "select=email&kind=eq.contact" },
    });
  });

  it("shows the log to admins on aal2 only, filtered and paged in PostgREST's syntax, and as CSV", async () => {
    // Members, users off the team and anonymous callers get PostgreSQL's refusal.
    for (const [supabase, status] of [
      [member, 403],
      [client(), 401],
    ] as const) {
      const { error, status: got } = await supabase.from("audit_log").select("*").limit(1);
      expect([got, error]).toEqual([status, expect.objectContaining({ code: "42501" })]);
    }
    const page = await admin
      .from("audit_log")
      .select("action, actor", { count: "exact" })
      .ilike("actor", `%${adminEmail.slice(0, 12)}%`)
      .order("created_at", { ascending: false })
      .range(0, 1);
    expect(page.error).toBeNull();
    expect(page.data).toHaveLength(2);
    expect(page.count).toBeGreaterThan(2);
    expect(page.data!.every((r) => r.actor === adminEmail)).toBe(true);

    const csv = await fetch(
      `${server.url}/rest/v1/audit_log?select=created_at,action,actor,ip_address&actor=eq.${encodeURIComponent(adminEmail)}&order=created_at.desc`,
      { headers: await headersOf(admin, { accept: "text/csv" }) },
    );
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="audit_log-/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("created_at,action,actor,ip_address");
    expect(lines.slice(1).every((l) => l.includes(adminEmail))).toBe(true);
    // The export of the log is itself logged.
    const exports = (await workspaceEntries(adminEmail)).filter((e) => e.action === "csv_exported");
    expect(exports.map((e) => e.traits?.relation)).toEqual(["audit_log"]);
  });
});
