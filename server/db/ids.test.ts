// Rows get time-ordered ids (UUID version 7), so inserts add to the newest end of each primary
// key's index however many rows the table holds; ids the server makes itself are of the same kind,
// and so is the made-up answer to a sign-up for a taken address.
import crypto from "node:crypto";
import { expect, it } from "vitest";
import { decoyUser } from "../auth/models/users.ts";
import { RefreshTokens } from "../auth/models/refresh-tokens.ts";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { migrate } from "./migrate.ts";
import { uuidV7At } from "../platform/uuid.ts";

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The Unix time in milliseconds that a version 7 id starts with. */
const timeOf = (id: string) => parseInt(id.replace(/-/g, "").slice(0, 12), 16);

describeEachDatabase("time-ordered ids", (ctx) => {
  it("makes version 7 ids that carry the time and sort in the order they were made", async () => {
    await migrate(ctx.db);
    const before = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const [row] = await ctx.db.query<{ id: string }>("SELECT internal.uuid_v7() AS id");
      ids.push(row!.id);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    for (const id of ids) {
      expect(id).toMatch(V7);
      expect(timeOf(id)).toBeGreaterThanOrEqual(before - 1000);
      expect(timeOf(id)).toBeLessThanOrEqual(Date.now() + 1000);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(3);
  });

  it("gives every table's uuid id that default", async () => {
    await migrate(ctx.db);
    const columns = await ctx.db.query<{ name: string; fallback: string | null }>(
      `SELECT c.table_schema || '.' || c.table_name AS name, c.column_default AS fallback
       FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
       WHERE c.column_name = 'id' AND c.data_type = 'uuid' AND t.table_type = 'BASE TABLE'
         AND c.table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    expect(columns.length).toBeGreaterThanOrEqual(12);
    expect(columns.filter((c) => c.fallback !== "internal.uuid_v7()").map((c) => c.name)).toEqual(
      [],
    );
  });
});

it("makes the ids it writes itself, and a decoy user's, version 7 too", () => {
  expect(new RefreshTokens(crypto.createSecretKey(crypto.randomBytes(32))).mint().id).toMatch(V7);
  const decoy = decoyUser({ email: "taken@revwise.example" }, {});
  expect(decoy.id).toMatch(V7);
  expect(decoy.identities.map((i) => i.identity_id)).toEqual([expect.stringMatching(V7)]);
});

it("makes a version 7 id of a given instant, unique however many are made in its millisecond", () => {
  const at = new Date("2026-11-29T23:04:05.678Z");
  const ids = Array.from({ length: 1000 }, () => uuidV7At(at));
  for (const id of ids) {
    expect(id).toMatch(V7);
    expect(timeOf(id)).toBe(at.getTime());
  }
  expect(new Set(ids).size).toBe(ids.length);
  expect(timeOf(uuidV7At(new Date(0)))).toBe(0);
});
