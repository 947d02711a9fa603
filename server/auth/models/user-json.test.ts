// The User JSON's listings read by one statement (listingsOf) are what the two reads of them give:
// the identities as rows, the factors' JSON (read as json_agg's text) with the same times, each in
// the order made; a user without identities or factors lists none. On each engine.
import crypto from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { migrate } from "../../db/migrate.ts";
import { factorsJson } from "./factors.ts";
import { listingsOf } from "./user-json.ts";
import { identitiesOf } from "./users.ts";

describeEachDatabase("auth: a user's listings in one statement", (ctx) => {
  beforeAll(() => migrate(ctx.db));
  const newUser = async () => {
    const [user] = await ctx.db.query<{ id: string }>(
      "INSERT INTO auth.users (email) VALUES ($1) RETURNING id",
      [`listings-${crypto.randomUUID()}@revwise.example`],
    );
    return user!.id;
  };
  const identity = (userId: string, provider: string, at: string) =>
    ctx.db.query(
      `INSERT INTO auth.identities (user_id, provider, provider_id, identity_data, created_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [userId, provider, crypto.randomUUID(), JSON.stringify({ sub: userId }), at],
    );
  type FactorColumns = {
    friendly_name: string;
    factor_type: "totp" | "phone";
    status: "unverified" | "verified";
    created_at: string;
    phone?: string;
    last_challenged_at?: string;
  };
  const factor = (userId: string, row: FactorColumns) =>
    ctx.db.query(
      `INSERT INTO auth.mfa_factors (user_id, friendly_name, factor_type, status, phone,
         last_challenged_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
      [
        userId,
        row.friendly_name,
        row.factor_type,
        row.status,
        row.phone ?? null,
        row.last_challenged_at ?? null,
        row.created_at,
      ],
    );
  const twoReads = async (userId: string) => ({
    identities: await identitiesOf(ctx.db, userId),
    factors: await factorsJson(ctx.db, userId),
  });

  it("lists identities and factors as their own reads do, in the order made, times to the millisecond", async () => {
    const userId = await newUser();
    await identity(userId, "keycloak", "2026-11-02T10:00:00.123456Z");
    await identity(userId, "email", "2026-11-01T10:00:00.987654Z");
    await factor(userId, {
      friendly_name: "phone",
      factor_type: "phone",
      status: "verified",
      phone: "15555550100",
      last_challenged_at: "2026-11-05T09:30:00.250999Z",
      created_at: "2026-11-04T08:00:00.000500Z",
    });
    const app = { factor_type: "totp", status: "unverified" } as const;
    await factor(userId, {
      ...app,
      friendly_name: "app",
      created_at: "2026-11-03T08:00:00.999999Z",
    });
    const listed = await listingsOf(ctx.db, userId);
    expect(listed).toEqual(await twoReads(userId));
    expect(listed.identities.map((i) => i.provider)).toEqual(["email", "keycloak"]);
    expect(listed.factors).toEqual([
      expect.objectContaining({ friendly_name: "app", created_at: "2026-11-03T08:00:00.999Z" }),
      expect.objectContaining({
        friendly_name: "phone",
        phone: "15555550100",
        last_challenged_at: "2026-11-05T09:30:00.250Z",
      }),
    ]);
  });

  it("lists nothing for a user without identities or factors, and factors alone without identities", async () => {
    const bare = await newUser();
    expect(await listingsOf(ctx.db, bare)).toEqual({ identities: [], factors: [] });
    const factorOnly = await newUser();
    await factor(factorOnly, {
      friendly_name: "app",
      factor_type: "totp",
      status: "unverified",
      created_at: "2026-11-03T08:00:00Z",
    });
    const listed = await listingsOf(ctx.db, factorOnly);
    expect(listed).toEqual(await twoReads(factorOnly));
    expect(listed.factors).toHaveLength(1);
  });
});
