// One person per address through supabase-js as the workspace reads it: the entries of every form
// under one address, whatever case it was typed in, are one person's, counted as they arrive (two
// at the same moment both count) and go (a pending newsletter address counts once confirmed);
// people are listed latest activity first with their latest entry and the name an entry gave,
// found by a part of the address; a lead's person filters the person's other entries.
import type { SupabaseClient } from "@supabase/supabase-js";
import { beforeAll, expect, it } from "vitest";
import { describeAuthSuiteEachDatabase } from "../../tests/support/auth-suite.ts";
import { teamMember } from "../../tests/support/team.ts";

describeAuthSuiteEachDatabase("rest: people", (suite) => {
  const { ctx, client } = suite;
  let member: SupabaseClient;

  beforeAll(async () => {
    ({ supabase: member } = await teamMember(suite, "people", { aal2: true }));
  });

  const person = async (email: string) =>
    (
      await member
        .from("people")
        .select("person,entries,kind,status,name,company")
        .eq("person", email)
    ).data;

  it("groups every form's entries under one address, whatever its case, newest activity first", async () => {
    const email = `ada-${Date.now().toString(36)}@grouped.example`;
    const visitor = client();
    expect(
      (await visitor.from("demo_requests").insert({ email: email.toUpperCase() })).error,
    ).toBeNull();
    await ctx.db.query(
      `INSERT INTO public.contact_messages (name, email, phone, message, created_at)
       VALUES ('Ada Quinn', $1, '+1 206 555 0100', 'Pricing?', now() - interval '1 hour')`,
      [email],
    );
    expect(await person(email)).toEqual([
      // The latest entry is the Watch Demo request; the name is the contact message's.
      {
        person: email,
        entries: 2,
        kind: "watch_demo",
        status: "new",
        name: "Ada Quinn",
        company: null,
      },
    ]);
    // A newsletter address is an entry once confirmed, not while pending.
    const [subscriber] = await ctx.db.query<{ id: string }>(
      "INSERT INTO public.newsletter_subscribers (email) VALUES ($1) RETURNING id",
      [email],
    );
    expect((await person(email))![0]!.entries).toBe(2);
    await ctx.db.query(
      "UPDATE public.newsletter_subscribers SET status = 'subscribed', confirmed_at = now() WHERE id = $1",
      [subscriber!.id],
    );
    expect((await person(email))![0]).toMatchObject({ entries: 3, kind: "newsletter" });

    // Listed latest activity first, found by a part of the address.
    const found = await member
      .from("people")
      .select("person,entries")
      .ilike("person", "*grouped.example*")
      .order("created_at", { ascending: false })
      .order("person", { ascending: false })
      .limit(1);
    expect(found.data).toEqual([{ person: email, entries: 3 }]);

    // A lead's person lists the person's entries.
    const entries = await member
      .from("leads")
      .select("kind")
      .eq("person", email)
      .order("created_at", { ascending: false });
    expect(entries.data!.map((e) => e.kind)).toEqual(["newsletter", "watch_demo", "contact"]);

    // Entries that go count no more; the person goes with their last one.
    await ctx.db.query("DELETE FROM public.newsletter_subscribers WHERE id = $1", [subscriber!.id]);
    await ctx.db.query("DELETE FROM public.demo_requests WHERE email = $1", [email]);
    expect(await person(email)).toMatchObject([{ entries: 1, kind: "contact" }]);
    await ctx.db.query("DELETE FROM public.contact_messages WHERE email = $1", [email]);
    expect(await person(email)).toEqual([]);
  });

  it("counts both of two entries of one person that arrive at the same moment", async () => {
    const email = `twin-${Date.now().toString(36)}@grouped.example`;
    await Promise.all(
      [1, 2, 3, 4].map((n) =>
        ctx.db.query(
          `INSERT INTO public.contact_messages (name, email, phone, message)
           VALUES ('Twin', $1, '+1 206 555 0100', $2)`,
          [email, `Message ${n}`],
        ),
      ),
    );
    expect((await person(email))![0]!.entries).toBe(4);
  });

  it("counts the people a page of the list is of, filtered by the address or by the latest entry", async () => {
    const domain = `counted-${Date.now().toString(36)}.example`;
    for (const [n, table] of [
      [1, "contact_messages"],
      [2, "contact_messages"],
      [3, "demo_requests"],
    ] as const)
      await ctx.db.query(
        table === "contact_messages"
          ? `INSERT INTO public.contact_messages (name, email, phone, message)
             VALUES ('Counted', $1, '+1 206 555 0100', 'Hello')`
          : "INSERT INTO public.demo_requests (email) VALUES ($1)",
        [`p${n}@${domain}`],
      );
    // By the address, the count reads the people table alone; by the latest entry's form, the
    // whole relation: both count the same people a page lists.
    const byAddress = await member
      .from("people")
      .select("person", { count: "exact" })
      .ilike("person", `*@${domain}`)
      .limit(1);
    expect(byAddress.count).toBe(3);
    expect(byAddress.data).toHaveLength(1);
    const byForm = await member
      .from("people")
      .select("person", { count: "estimated" })
      .ilike("person", `*@${domain}`)
      .eq("kind", "contact")
      .order("person");
    expect(byForm.count).toBe(2);
    expect(byForm.data!.map((p) => p.person)).toEqual([`p1@${domain}`, `p2@${domain}`]);
  });
});
