// The `leads` view through supabase-js, as the workspace reads it: only a team member whose
// session reached aal2 (or the service-role key) reads rows; anonymous callers, other users and a
// member on aal1 get PostgreSQL's refusal as PostgREST sends it, and a role taken away counts at
// once. PostgREST's filters, search across columns, order, ranges and the exact count.
import type { SupabaseClient } from "@supabase/supabase-js";
import { beforeAll, expect, it } from "vitest";
import { uniqueIp } from "../../../tests/support/api-server.ts";
import { describeAuthSuiteEachDatabase } from "../../../tests/support/auth-suite.ts";
import { readUntil } from "../../../tests/support/poll.ts";
import { raiseToAal2, teamMember } from "../../../tests/support/team.ts";

describeAuthSuiteEachDatabase("rest: the leads view", (suite) => {
  const { server, smtp, client, confirmedUser, ctx, emailTo } = suite;
  const domain = `leads-${Date.now().toString(36)}.example`;
  let member: SupabaseClient;
  let memberId: string;

  beforeAll(async () => {
    // A subscriber who confirmed, and a sign-up left pending (confirmed in the subscribers'
    // test): only the confirmed address is a lead.
    await ctx.db.query(
      `INSERT INTO public.newsletter_subscribers (email, source, status, confirmed_at)
       VALUES ($1, '{"page": "/blog"}', 'subscribed', now())`,
      [`fan@${domain}`],
    );
    const visitor = client();
    for (const [table, email, page] of [
      ["newsletter_subscribers", `reader@${domain}`, "/blog"],
      ["demo_requests", `cto@${domain}`, "/product/tour"],
    ] as const)
      expect((await visitor.from(table).insert({ email, source: { page } })).error).toBeNull();
    await ctx.db.query(
      `INSERT INTO public.contact_messages (name, email, phone, message, source)
       VALUES ('Ada Quinn', $1, '+1 206 555 0100', 'Pricing for 40 sellers?', '{"page": "/contact", "utm_campaign": "fall"}')`,
      [`ada@${domain}`],
    );
    await ctx.db.query(
      `INSERT INTO public.access_requests (first_name, last_name, email, company_name, company_size, department)
       VALUES ('Bo', 'Lind', $1, 'Lumen Freight', '51-200', 'Sales')`,
      [`bo@${domain}`],
    );
    ({ supabase: member, id: memberId } = await teamMember(suite, "leads-member", { aal2: true }));
  });

  /** What a client sends now: the API key and its session's access token. */
  const headersOf = async (supabase: SupabaseClient) => ({
    apikey: server.anonKey,
    authorization: `Bearer ${(await supabase.auth.getSession()).data.session!.access_token}`,
  });

  const ours = (supabase: SupabaseClient) =>
    supabase.from("leads").select("*", { count: "exact" }).ilike("email", `%@${domain}`);

  it("lets a member on aal2 read every form's leads, newest first, with their source", async () => {
    const { data, error, count, status } = await ours(member).order("created_at", {
      ascending: false,
    });
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(count).toBe(4);
    expect(data!.map((l) => l.kind)).toEqual([
      "request_access",
      "contact",
      "watch_demo",
      "newsletter",
    ]);
    expect(data![3]).toMatchObject({ email: `fan@${domain}`, page: "/blog" });
    expect(data!.map((l) => l.email)).not.toContain(`reader@${domain}`);
    expect(data![1]).toMatchObject({
      name: "Ada Quinn",
      details: { phone: "+1 206 555 0100", message: "Pricing for 40 sellers?" },
      page: "/contact",
      utm_campaign: "fall",
      status: "new",
      owner_id: null,
      due_on: null,
      person: `ada@${domain}`,
    });
    expect(data![0]).toMatchObject({ name: "Bo Lind", company: "Lumen Freight" });
  });

  it("filters, searches across columns, orders and pages in PostgREST's syntax", async () => {
    const contact = await ours(member).eq("kind", "contact").select("email,kind");
    expect(contact.data).toEqual([{ email: `ada@${domain}`, kind: "contact" }]);
    const search = await ours(member).or(
      "name.ilike.*lind*,company.ilike.*lind*,email.ilike.*lind*",
    );
    expect(search.data!.map((l) => l.email)).toEqual([`bo@${domain}`]);
    const kinds = await ours(member).in("kind", ["newsletter", "watch_demo"]).order("email");
    expect(kinds.data!.map((l) => l.email)).toEqual([`cto@${domain}`, `fan@${domain}`]);
    // `search` holds name, email and company as one text (filtered, never selected by *).
    const found = await ours(member).ilike("search", "%lumen fr%").select("email");
    expect(found.data).toEqual([{ email: `bo@${domain}` }]);
    const byEmail = await ours(member).ilike("search", `%fan@${domain}%`).select("kind");
    expect(byEmail.data).toEqual([{ kind: "newsletter" }]);
    expect(Object.keys((await ours(member).limit(1)).data![0]!)).not.toContain("search");
    // An estimated count is exact up to a thousand rows.
    const estimated = await member
      .from("leads")
      .select("id", { count: "estimated" })
      .ilike("email", `%@${domain}`);
    expect(estimated.count).toBe(4);
    const planned = await member.from("leads").select("id", { count: "planned", head: true });
    expect(planned.count).toBeGreaterThan(0);
    // A column filtered twice holds both conditions (a date range), as does a second or=().
    const range = await ours(member)
      .gte("created_at", "2000-01-01")
      .lt("created_at", "2000-01-02")
      .select("id");
    expect(range.data).toEqual([]);
    const both = await ours(member).or("kind.eq.contact,kind.eq.newsletter").or("name.ilike.*ada*");
    expect(both.data!.map((l) => l.email)).toEqual([`ada@${domain}`]);
    const notNew = await ours(member).neq("status", "new");
    expect(notNew.data).toEqual([]);

    const page = await ours(member).order("created_at", { ascending: false }).range(1, 2);
    expect(page.status).toBe(206);
    expect(page.count).toBe(4);
    expect(page.data!.map((l) => l.kind)).toEqual(["contact", "watch_demo"]);

    const bad = await ours(member).eq("nonsense", "x");
    expect(bad.error).toMatchObject({ code: "42703" });
    const badOp = await member.from("leads").select().filter("email", "regex", "x");
    expect(badOp.error).toMatchObject({ code: "PGRST100" });
    const badId = await member.from("leads").select().eq("id", "not-a-uuid");
    expect(badId.error).toMatchObject({ code: "22P02" });
    expect(badId.status).toBe(400);
    // A filter the column's type refuses is the caller's mistake, in PostgreSQL's words.
    for (const filtered of [
      member.from("leads").select("id").is("id", true),
      member.from("emails").select("id").not("created_at", "is", false),
      member.from("leads").select("id").or("kind.is.true"),
    ]) {
      const notBoolean = await filtered;
      expect([notBoolean.status, notBoolean.error?.code]).toEqual([400, "42804"]);
      expect(notBoolean.error?.message).toMatch(/must be type boolean/);
    }
    // A filter is an operator, a dot and a value.
    const bare = await fetch(`${server.url}/rest/v1/leads?email=eq`, {
      headers: await headersOf(member),
    });
    expect([bare.status, ((await bare.json()) as { code: string }).code]).toEqual([
      400,
      "PGRST100",
    ]);
  });

  it("refuses anonymous callers, other users and members on aal1; a role taken away counts at once", async () => {
    const anonymous = await client().from("leads").select();
    expect([anonymous.status, anonymous.error?.code]).toEqual([401, "42501"]);
    expect(anonymous.data).toBeNull();
    const refused = await fetch(`${server.url}/rest/v1/leads`, {
      headers: { apikey: server.anonKey },
    });
    // The key is good: the caller lacks a privilege, its token is not invalid.
    expect(refused.headers.get("www-authenticate")).toBe("Bearer");

    const { supabase: outsider } = await confirmedUser("leads-outsider");
    const other = await outsider.from("leads").select();
    expect([other.status, other.error?.code]).toEqual([403, "42501"]);

    const { supabase: aal1 } = await teamMember(suite, "leads-aal1", { aal2: false });
    const low = await aal1.from("leads").select();
    expect([low.status, low.error?.code]).toEqual([403, "42501"]);
    // A token from before the second factor stays an aal1 token once its session reaches aal2.
    const before = await headersOf(aal1);
    await raiseToAal2(aal1);
    expect((await ours(aal1)).count).toBe(4);
    const stale = await fetch(`${server.url}/rest/v1/leads?select=id`, { headers: before });
    expect([stale.status, ((await stale.json()) as { code: string }).code]).toEqual([403, "42501"]);

    const service = await ours(server.admin());
    expect(service.count).toBe(4);

    const { supabase: leaving, id } = await teamMember(suite, "leads-leaving", { aal2: true });
    expect((await ours(leaving)).count).toBe(4);
    await server.admin().auth.admin.updateUserById(id, { app_metadata: { team_role: null } });
    const gone = await ours(leaving);
    expect([gone.status, gone.error?.code]).toEqual([403, "42501"]);
    expect(memberId).toBeTruthy();
  });

  it("keeps every answer out of caches: reads, CSV exports, statistics, writes and errors", async () => {
    const asMember = await headersOf(member);
    const answers = await Promise.all(
      [
        ["/leads?select=email", asMember],
        ["/leads?select=email", { ...asMember, accept: "text/csv" }],
        ["/page_stats?day=gte.2026-01-01&day=lte.2026-01-31", asMember],
        ["/page_stats", asMember],
        ["/leads", { apikey: server.anonKey }],
        ["/leads", {}],
        ["/no_such_table", { apikey: server.anonKey }],
        ["/rpc/nothing", { apikey: server.anonKey }, "POST"],
        ["/%ZZ", { apikey: server.anonKey }],
      ].map(async ([path, headers, method]) => {
        const res = await fetch(`${server.url}/rest/v1${path as string}`, {
          method: method as string | undefined,
          headers: headers as Record<string, string>,
        });
        await res.arrayBuffer();
        return [path, res.status, res.headers.get("cache-control")];
      }),
    );
    const written = await fetch(`${server.url}/rest/v1/newsletter_subscribers`, {
      method: "POST",
      headers: {
        apikey: server.anonKey,
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
      },
      body: JSON.stringify({ email: `cache-${Date.now().toString(36)}@no-store.example` }),
    });
    answers.push(["insert", written.status, written.headers.get("cache-control")]);
    expect(answers).toEqual([
      ["/leads?select=email", 200, "no-store"],
      ["/leads?select=email", 200, "no-store"],
      ["/page_stats?day=gte.2026-01-01&day=lte.2026-01-31", 200, "no-store"],
      ["/page_stats", 400, "no-store"],
      ["/leads", 401, "no-store"],
      ["/leads", 401, "no-store"],
      ["/no_such_table", 404, "no-store"],
      ["/rpc/nothing", 404, "no-store"],
      ["/%ZZ", 400, "no-store"],
      ["insert", 201, "no-store"],
    ]);
  });

  it("lets members set a lead's status and owner, recording who changed what and when", async () => {
    const [lead] = (await ours(member).eq("kind", "contact")).data!;
    const states = () => member.from("lead_states");
    const set = await states()
      .upsert({ kind: "contact", lead_id: lead.id, status: "contacted" })
      .select();
    expect(set.error).toBeNull();
    expect(set.data).toEqual([
      expect.objectContaining({ status: "contacted", owner_id: null, updated_by: memberId }),
    ]);
    // Only what is sent changes; a second write merges into the first. single() asks for the
    // row as one object, as PostgREST answers a write's representation.
    const merged = await states()
      .upsert({ kind: "contact", lead_id: lead.id, owner_id: memberId })
      .select()
      .single();
    expect(merged.error).toBeNull();
    expect(merged.data).toMatchObject({ status: "contacted", owner_id: memberId });
    const [seen] = (await ours(member).eq("id", lead.id)).data!;
    expect(seen).toMatchObject({
      status: "contacted",
      owner_id: memberId,
      status_updated_by: memberId,
      // Every time is written one way, to the microsecond, and filters back to its own row.
      status_updated_at: merged.data!.updated_at,
    });
    expect(merged.data!.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    const atThatTime = await ours(member).eq("status_updated_at", merged.data!.updated_at);
    expect(atThatTime.data!.map((l) => l.id)).toEqual([lead.id]);
    // Ignoring a duplicate changes nothing and is no error (PostgREST's ON CONFLICT DO NOTHING).
    const ignored = await states()
      .upsert({ kind: "contact", lead_id: lead.id, status: "won" }, { ignoreDuplicates: true })
      .select();
    expect([ignored.status, ignored.error, ignored.data]).toEqual([201, null, []]);
    const noConstraint = await states()
      .upsert({ kind: "contact", lead_id: lead.id, status: "won" }, { onConflict: "status" })
      .select();
    expect([noConstraint.status, noConstraint.error?.code]).toEqual([400, "42P10"]);
    const history = await ctx.db.query<{
      fields: string[];
      owner_id: string | null;
      changed_by: string;
    }>(
      "SELECT fields, owner_id, changed_by FROM public.lead_state_changes WHERE lead_id = $1 ORDER BY changed_at, id",
      [lead.id],
    );
    expect(history).toEqual([
      { fields: ["status"], owner_id: null, changed_by: memberId },
      { fields: ["owner_id"], owner_id: memberId, changed_by: memberId },
    ]);

    // Refused: a plain insert over an existing row, a lead that does not exist, a bad status,
    // anyone who may not read the leads; and nothing changed.
    const again = await states().insert({ kind: "contact", lead_id: lead.id, status: "won" });
    expect(again.error).toMatchObject({ code: "23505" });
    const missing = await states().upsert({
      kind: "contact",
      lead_id: crypto.randomUUID(),
      status: "won",
    });
    expect(missing.error).toMatchObject({ code: "23503" });
    const badStatus = await states().upsert({
      kind: "contact",
      lead_id: lead.id,
      status: "closed",
    });
    expect(badStatus.error).toMatchObject({ code: "23514" });
    const anonymous = await client()
      .from("lead_states")
      .upsert({ kind: "contact", lead_id: lead.id, status: "won" });
    expect([anonymous.status, anonymous.error?.code]).toEqual([401, "42501"]);
    expect((await ours(member).eq("id", lead.id)).data![0].status).toBe("contacted");
  });

  it("names columns by an alias and reads a key of the form's fields, in JSON and in CSV, as PostgREST does", async () => {
    const select = `"Company size":details->>company_size,Email:email,details->>department`;
    const read = await member
      .from("leads")
      .select(select)
      .eq("kind", "request_access")
      .ilike("email", `%@${domain}`);
    expect(read.data).toEqual([
      { "Company size": "51-200", Email: `bo@${domain}`, department: "Sales" },
    ]);
    const token = (await member.auth.getSession()).data.session!.access_token;
    const res = await fetch(
      `${server.url}/rest/v1/leads?select=${encodeURIComponent(select)}&email=eq.bo@${domain}`,
      { headers: { apikey: server.anonKey, authorization: `Bearer ${token}`, accept: "text/csv" } },
    );
    expect((await res.text()).split("\r\n")).toEqual([
      "Company size,Email,department",
      `51-200,bo@${domain},Sales`,
      "",
    ]);
    // A key of a column that is not jsonb, an item that is none, a name twice: refused.
    for (const [bad, status, code] of [
      ["email->>x", 404, "42883"],
      ["email;drop", 400, "PGRST100"],
      ["a:email,a:name", 400, "PGRST100"],
    ] as const) {
      const answer = await member.from("leads").select(bad).limit(1);
      expect([bad, answer.status, answer.error?.code]).toEqual([bad, status, code]);
    }
  });

  it("exports the filtered leads as CSV, every batch in order, formulas neutralised, and counts them as asked", async () => {
    const bulk = `bulk-${domain}`;
    await ctx.db.query(
      `INSERT INTO public.contact_messages (name, email, phone, message, created_at)
       SELECT CASE WHEN n = 1 THEN '=HYPERLINK("x")' ELSE 'Lead ' || n END, 'lead' || n || '@' || $1,
         '1', 'Hi, there', now() - make_interval(secs => n)
       FROM generate_series(1, 2500) AS n`,
      [bulk],
    );
    const token = (await member.auth.getSession()).data.session!.access_token;
    const res = await fetch(
      `${server.url}/rest/v1/leads?select=email,name&email=ilike.*@${bulk}&order=email.asc&limit=3`,
      {
        headers: { apikey: server.anonKey, authorization: `Bearer ${token}`, accept: "text/csv" },
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = (await res.text()).split("\r\n").filter((l) => l !== "");
    expect(lines[0]).toBe("email,name");
    // Every row, newest first: order and limit do not apply to an export.
    expect(lines).toHaveLength(2501);
    expect(lines[1]).toBe(`lead1@${bulk},"'=HYPERLINK(""x"")"`);
    expect(lines[2]).toBe(`lead2@${bulk},Lead 2`);
    expect(lines[2500]).toBe(`lead2500@${bulk},Lead 2500`);
    expect(new Set(lines.slice(1).map((l) => l.split(",")[0])).size).toBe(2500);

    // Rows of one statement share their time to the microsecond, and rows microseconds apart
    // share its millisecond: a batch that ends among them continues with the rest of them.
    for (const [label, spacing] of [
      ["same", "0"],
      ["micro", "0.0001"],
    ] as const) {
      const at = `${label}-${bulk}`;
      await ctx.db.query(
        `INSERT INTO public.contact_messages (name, email, phone, message, created_at)
         SELECT 'Lead ' || n, 'lead' || n || '@' || $1, '1', 'Hi', now() - make_interval(secs => n * $2::float8)
         FROM generate_series(1, 1100) AS n`,
        [at, spacing],
      );
      const csv = await fetch(`${server.url}/rest/v1/leads?select=email&email=ilike.*@${at}`, {
        headers: { apikey: server.anonKey, authorization: `Bearer ${token}`, accept: "text/csv" },
      });
      const emails = (await csv.text())
        .split("\r\n")
        .filter((l) => l !== "")
        .slice(1);
      expect([label, emails.length, new Set(emails).size]).toEqual([label, 1100, 1100]);
    }

    // An estimated count is exact up to a thousand rows, however many the planner expects (it
    // knows nothing of how few rows, none here, are later than a minute from now), and an
    // estimate beyond.
    const later = new Date(Date.now() + 60_000).toISOString();
    const counted = async (filters: string, how: string) => {
      const res = await fetch(`${server.url}/rest/v1/leads?select=id&limit=1&${filters}`, {
        headers: {
          apikey: server.anonKey,
          authorization: `Bearer ${token}`,
          prefer: `count=${how}`,
        },
      });
      return Number(res.headers.get("content-range")!.split("/")[1]);
    };
    for (const filters of [`created_at=gt.${later}`, "kind=neq.contact"])
      expect([filters, await counted(filters, "estimated")]).toEqual([
        filters,
        await counted(filters, "exact"),
      ]);
    expect(await counted(`email=ilike.*@${bulk}`, "estimated")).toBeGreaterThan(1000);

    const refused = await fetch(`${server.url}/rest/v1/leads`, {
      headers: { apikey: server.anonKey, accept: "text/csv" },
    });
    expect(refused.status).toBe(401);
    // A filter the database refuses is PostgREST's 400 before any of the download is sent.
    for (const [filter, code] of [
      ["id=eq.not-a-uuid", "22P02"],
      ["created_at=gt.notadate", "22007"],
      ["or=(id.eq.1)", "22P02"],
    ]) {
      const bad = await fetch(`${server.url}/rest/v1/leads?${filter}`, {
        headers: { apikey: server.anonKey, authorization: `Bearer ${token}`, accept: "text/csv" },
      });
      expect([bad.status, bad.headers.get("content-disposition")], filter).toEqual([400, null]);
      expect(await bad.json(), filter).toMatchObject({ code });
    }
  });

  it("lets members list the newsletter's subscribers with their status, and export them as CSV", async () => {
    const reader = `reader@${domain}`;
    const pending = await member
      .from("subscribers")
      .select("*", { count: "exact" })
      .eq("status", "pending")
      .ilike("email", `%@${domain}`);
    expect(pending.error).toBeNull();
    expect(pending.count).toBe(1);
    expect(pending.data).toEqual([
      {
        id: expect.any(String),
        email: reader,
        status: "pending",
        created_at: expect.any(String),
        confirmed_at: null,
        unsubscribed_at: null,
        unsubscribe_reason: null,
      },
    ]);
    // Confirmed through the link of its email (a POST, as the page's button sends it).
    const mail = await emailTo(reader, "Confirm your Revwise newsletter subscription");
    const link = /https?:\/\/\S+\/newsletter\/confirm\?token=\S+/.exec(mail.text ?? "")![0];
    expect((await fetch(link, { method: "POST" })).status).toBe(200);
    const subscribed = await member
      .from("subscribers")
      .select("email,status")
      .eq("status", "subscribed")
      .ilike("email", `%@${domain}`)
      .order("email");
    expect(subscribed.data).toEqual([
      { email: `fan@${domain}`, status: "subscribed" },
      { email: reader, status: "subscribed" },
    ]);
    // Confirmed, the address is a lead in the inbox.
    const lead = await ours(member).eq("email", reader).select("kind");
    expect(lead.data).toEqual([{ kind: "newsletter" }]);

    const token = (await member.auth.getSession()).data.session!.access_token;
    const csv = await fetch(
      `${server.url}/rest/v1/subscribers?select=email,status&email=ilike.*@${domain}`,
      {
        headers: { apikey: server.anonKey, authorization: `Bearer ${token}`, accept: "text/csv" },
      },
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toMatch(/filename="subscribers-/);
    // Newest sign-up first, as every export.
    expect(await csv.text()).toBe(
      `email,status\r\n${reader},subscribed\r\nfan@${domain},subscribed\r\n`,
    );
  });

  it("lets members read the outbox (state, attempts, last error), never the emails' bodies", async () => {
    const outbox = await member
      .from("emails")
      .select("*", { count: "exact" })
      .eq("to_address", `cto@${domain}`)
      .order("created_at", { ascending: false });
    expect(outbox.error).toBeNull();
    expect(outbox.data).toEqual([
      expect.objectContaining({
        kind: "demo-access",
        subject: "Your Revwise demo is ready",
        status: expect.stringMatching(/^(queued|sent)$/),
      }),
    ]);
    expect(Object.keys(outbox.data![0]!)).not.toContain("text_body");
    const { id, created_at: createdAt } = outbox.data![0]! as { id: string; created_at: string };
    const sameTime = await member
      .from("emails")
      .select("id")
      .eq("id", id)
      .eq("created_at", createdAt);
    expect(sameTime.data).toEqual([{ id }]);
    const later = await member.from("emails").select("id").eq("id", id).gt("created_at", createdAt);
    expect(later.data).toEqual([]);
    // Each email a lead caused names it: the lead's detail lists them.
    const lead = await ours(member).eq("email", `cto@${domain}`).select("id").single();
    expect(lead.error).toBeNull();
    const caused = await member.from("emails").select("kind").eq("lead_id", lead.data!.id);
    expect(caused.error).toBeNull();
    expect(caused.data).toEqual([{ kind: "demo-access" }]);
    const body = await member.from("emails").select("text_body");
    expect(body.error).toMatchObject({ code: "42703" });
    const tried = await member.from("emails").select("id").gte("attempts", 0).limit(1);
    expect(tried.error).toBeNull();
    const anonymous = await client().from("emails").select();
    expect([anonymous.status, anonymous.error?.code]).toEqual([401, "42501"]);
  });

  it("lets members resend a failed email, and never one that was sent", async () => {
    const bounced = `bounced@${domain}`;
    let refusals = 0;
    smtp.behave({
      rejectRecipient: (address) =>
        address === bounced && refusals++ === 0
          ? { code: 550, message: "5.2.2 Mailbox full" }
          : undefined,
    });
    expect((await client().from("demo_requests").insert({ email: bounced })).error).toBeNull();
    /** The bounced address's email, once it is in this state. */
    const emailIn = async (status: string) =>
      (await readUntil(
        async () =>
          (await member.from("emails").select("id,status,last_error").eq("to_address", bounced))
            .data,
        (data) => data?.[0]?.status === status,
      ))![0]!;
    const failed = await emailIn("failed");
    expect(failed.last_error).toMatch(/Mailbox full/);

    const anonymous = await client().rpc("resend_email", { email_id: failed.id });
    expect([anonymous.status, anonymous.error?.code]).toEqual([401, "42501"]);
    const resent = await member.rpc("resend_email", { email_id: failed.id });
    expect(resent).toMatchObject({ error: null, data: true });
    await emailTo(bounced, "Your Revwise demo is ready");
    expect((await emailIn("sent")).id).toBe(failed.id);
    // A sent email is not sent again; an unknown function is PostgREST's 404.
    expect((await member.rpc("resend_email", { email_id: failed.id })).data).toBe(false);
    expect((await member.rpc("nothing_here")).error).toMatchObject({ code: "PGRST202" });
    // A function is found by its name and its parameters' names, as PostgREST finds one.
    for (const args of [{}, { email_id: failed.id, extra: 1 }, { id: failed.id }]) {
      const wrong = await member.rpc("resend_email", args);
      expect([wrong.status, wrong.error?.code, wrong.error?.hint]).toEqual([
        404,
        "PGRST202",
        "Perhaps you meant to call the function public.resend_email(email_id)",
      ]);
    }
    const notText = await member.rpc("resend_email", { email_id: {} });
    expect(notText.error).toMatchObject({
      code: "22P02",
      message: 'invalid input syntax for type uuid: "{}"',
    });
    smtp.behave({});
  });
});
