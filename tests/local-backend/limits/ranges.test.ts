/**
 * Index ranges per transaction (Convex: TRANSACTION_MAX_READ_SET_INTERVALS 4,096): every `db.get`
 * and `db.query` reads a range of an index; overlapping or adjacent ranges of one index count once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, failure, useBackend } from "./helpers";

const ctx = useBackend();

describe("index ranges read", () => {
  let ids: string[] = [];
  beforeAll(async () => {
    ids = (await ctx.client.mutation(api.items.insertMany, {
      items: Array.from({ length: 5 }, (_, i) => ({ kind: `r${i}`, n: i })),
    })) as string[];
  });

  it("reads 4,096 distinct ranges", async () => {
    expect(await ctx.client.query(api.limits.ranges, { n: 4_096 })).toBe(4_096);
  });

  it("refuses 4,097 with Convex's message", async () => {
    const message = await failure(ctx.client.query(api.limits.ranges, { n: 4_097 }));
    expect(message).toContain(
      "Uncaught Error: Too many reads in a single function execution (limit: 4096). Consider using smaller limits in your queries, paginating your queries, or using indexed queries with a selective index range expressions.",
    );
  });

  it("counts the same range once", async () => {
    expect(await ctx.client.query(api.limits.ranges, { n: 5_000, same: true })).toBe(1);
  });

  it("counts db.get of one id once and of distinct ids each", async () => {
    expect(await ctx.client.query(api.limits.gets, { ids: [ids[0]], n: 5_000 })).toBe(1);
    expect(await ctx.client.query(api.limits.gets, { ids, n: 5_000 })).toBe(5);
  });
});
