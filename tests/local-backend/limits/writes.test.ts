/**
 * Writes per transaction (Convex: TRANSACTION_MAX_NUM_USER_WRITES 16,000 and
 * TRANSACTION_MAX_USER_WRITE_SIZE_BYTES 16 MiB): a mutation over either limit fails with Convex's
 * message and commits nothing; one exactly at the limit commits.
 */
import { describe, expect, it } from "vitest";
import { api, failure, freshTable, useBackend } from "./helpers";

const ctx = useBackend();

describe("documents written", () => {
  it("commits 16,000 inserts", async () => {
    const table = freshTable("w");
    expect(await ctx.client.mutation(api.limits.insertN, { table, n: 16_000 })).toBe(16_000);
    expect(await ctx.client.query(api.limits.countDocs, { table })).toBe(16_000);
  });

  it("refuses 16,001 inserts with Convex's message and writes nothing", async () => {
    const table = freshTable("w");
    const message = await failure(ctx.client.mutation(api.limits.insertN, { table, n: 16_001 }));
    expect(message).toContain("Uncaught Error: Too many writes in a single function execution (limit: 16000)");
    expect(await ctx.client.query(api.limits.countDocs, { table })).toBe(0);
  });

  it("counts patches and deletes as writes too", async () => {
    const table = freshTable("w");
    // 8,000 inserts + 4,000 patches + 4,000 deletes = 16,000
    expect(await ctx.client.mutation(api.limits.writeMixed, { table, n: 8_000, changes: 4_000 })).toBe(8_000);
    expect(await ctx.client.query(api.limits.countDocs, { table })).toBe(4_000);
    const other = freshTable("w");
    const message = await failure(
      ctx.client.mutation(api.limits.writeMixed, { table: other, n: 8_001, changes: 4_000 }),
    );
    expect(message).toContain("Too many writes in a single function execution (limit: 16000)");
    expect(await ctx.client.query(api.limits.countDocs, { table: other })).toBe(0);
  });
});

describe("bytes written", () => {
  // A document {i, pad} with a 1,000,000-character pad is about 1,000,060 bytes (Convex's size).
  it("commits 16 documents of about 1 MB (under 16 MiB in all)", async () => {
    const table = freshTable("wb");
    expect(await ctx.client.mutation(api.limits.insertN, { table, n: 16, size: 1_000_000 })).toBe(16);
    expect(await ctx.client.query(api.limits.countDocs, { table })).toBe(16);
  });

  it("refuses 17 of them (over 16 MiB) with Convex's message and writes nothing", async () => {
    const table = freshTable("wb");
    const message = await failure(ctx.client.mutation(api.limits.insertN, { table, n: 17, size: 1_000_000 }));
    expect(message).toContain("Uncaught Error: Too many bytes written in a single function execution (limit: 16 MiB)");
    expect(await ctx.client.query(api.limits.countDocs, { table })).toBe(0);
  });
});
