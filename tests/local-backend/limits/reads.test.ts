/**
 * Reads per transaction (Convex: TRANSACTION_MAX_READ_SIZE_ROWS 32,000 documents scanned and
 * TRANSACTION_MAX_READ_SIZE_BYTES 16 MiB): documents a filter drops count as scanned.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, failure, useBackend } from "./helpers";

const ctx = useBackend();
const HELP =
  "Consider using smaller limits in your queries, paginating your queries, or using indexed queries with a selective index range expressions.";

describe("documents read", () => {
  beforeAll(async () => {
    await ctx.client.mutation(api.limits.insertN, { table: "scan", n: 16_000 });
    await ctx.client.mutation(api.limits.insertN, { table: "scan", n: 16_000, start: 16_000 });
    await ctx.client.mutation(api.limits.insertN, { table: "scan", n: 1, start: 32_000 });
  });

  it("scans 32,000 documents", async () => {
    expect(await ctx.client.query(api.limits.scan, { table: "scan", take: 32_000 })).toBe(32_000);
  });

  it("refuses a query that scans 32,001 with Convex's message", async () => {
    const message = await failure(ctx.client.query(api.limits.scan, { table: "scan" }));
    expect(message).toContain(
      `Uncaught Error: Too many documents read in a single function execution (limit: 32000). ${HELP}`,
    );
  });

  it("counts the documents a filter drops", async () => {
    const message = await failure(ctx.client.query(api.limits.scan, { table: "scan", filterAll: true }));
    expect(message).toContain("Too many documents read in a single function execution (limit: 32000)");
  });

  it("applies in mutations too", async () => {
    const message = await failure(ctx.client.mutation(api.limits.scanInMutation, { table: "scan" }));
    expect(message).toContain("Too many documents read in a single function execution (limit: 32000)");
  });
});

describe("bytes read", () => {
  beforeAll(async () => {
    // 17 documents of about 1,000,060 bytes: 16 fit in 16 MiB, 17 do not
    await ctx.client.mutation(api.limits.insertN, { table: "big", n: 16, size: 1_000_000 });
    await ctx.client.mutation(api.limits.insertN, { table: "big", n: 1, size: 1_000_000, start: 16 });
  });

  it("reads 16 documents of about 1 MB", async () => {
    expect(await ctx.client.query(api.limits.scan, { table: "big", take: 16 })).toBe(16);
  });

  it("refuses a query that reads 17 of them (over 16 MiB) with Convex's message", async () => {
    const message = await failure(ctx.client.query(api.limits.scan, { table: "big" }));
    expect(message).toContain(
      `Uncaught Error: Too many bytes read in a single function execution (limit: 16777216 bytes). ${HELP}`,
    );
  });
});
