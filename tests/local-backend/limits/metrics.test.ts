/**
 * `ctx.meta.getTransactionMetrics()` reports what the transaction used and has left, counted as
 * Convex counts (document sizes by Convex's size rules, system fields included; reading a
 * document inserted earlier in the transaction adds no index range; a nested mutation that fails
 * gives back its writes but not its reads), and the engine keeps the largest usage per
 * transaction for benchmarks (`engine.transactionStats()`).
 */
import { describe, expect, it } from "vitest";
import { api, freshTable, useBackend } from "./helpers";

const ctx = useBackend();

type Metric = { used: number; remaining: number };
type Metrics = Record<
  | "bytesRead"
  | "bytesWritten"
  | "databaseQueries"
  | "documentsRead"
  | "documentsWritten"
  | "functionsScheduled"
  | "scheduledFunctionArgsBytes",
  Metric
>;
const LIMITS = {
  bytesRead: 16_777_216,
  bytesWritten: 16_777_216,
  databaseQueries: 4_096,
  documentsRead: 32_000,
  documentsWritten: 16_000,
  functionsScheduled: 1_000,
  scheduledFunctionArgsBytes: 16_777_216,
};

function expectMetrics(actual: Metrics, used: Record<keyof Metrics, number>) {
  const expected = Object.fromEntries(
    Object.entries(used).map(([k, u]) => [k, { used: u, remaining: LIMITS[k as keyof Metrics] - u }]),
  );
  expect(actual).toEqual(expected);
}

/** Convex's size of a stored document: the fields' sizes plus `_creationTime` (23) and `_id` (6 + its length). */
function docSize(id: string, fieldsSize: number): number {
  return 2 + 23 + 6 + id.length + fieldsSize;
}

describe("ctx.meta.getTransactionMetrics", () => {
  it("reports what a mutation read, wrote and scheduled", async () => {
    const table = freshTable("meta");
    const { ids, metrics } = (await ctx.client.mutation(api.limits.metrics, { table })) as {
      ids: string[];
      metrics: Metrics;
    };
    // a = {i: 1, s: "abc"}: i is 1 + 1 + 9, s is 1 + 1 + 2 + 3; b = {i: 2}, patched to {i: 3}
    const a = docSize(ids[0], 11 + 7);
    const b = docSize(ids[1], 11);
    expectMetrics(metrics, {
      documentsWritten: 3,
      bytesWritten: a + b + b,
      // db.get(a) twice, the scan of a and b, the patch's read of b
      documentsRead: 5,
      bytesRead: 3 * a + 2 * b,
      // only the scan: a and b were inserted by this transaction, so their ids are ranges it already depends on
      databaseQueries: 1,
      functionsScheduled: 1,
      // [{pad: "pp"}]: 2 + (2 + 3 + 1 + 4)
      scheduledFunctionArgsBytes: 12,
    });
  });

  it("gives back a failed nested mutation's writes, not its reads", async () => {
    const table = freshTable("meta");
    const { ids, metrics } = (await ctx.client.mutation(api.limits.nestedRollback, { table })) as {
      ids: string[];
      metrics: Metrics;
    };
    const doc = docSize(ids[0], 11);
    expectMetrics(metrics, {
      documentsWritten: 1,
      bytesWritten: doc,
      documentsRead: 2,
      bytesRead: 2 * doc,
      databaseQueries: 1,
      functionsScheduled: 0,
      scheduledFunctionArgsBytes: 0,
    });
    expect(await ctx.client.query(api.limits.countDocs, { table })).toBe(1);
  });

  it("reports a query's index ranges", async () => {
    expect(await ctx.client.query(api.limits.ranges, { n: 3 })).toBe(3);
  });
});

describe("engine.transactionStats", () => {
  it("keeps the largest usage per transaction and which function had it, until reset", async () => {
    ctx.backend.engine.transactionStats({ reset: true });
    const table = freshTable("stats");
    await ctx.client.mutation(api.limits.insertN, { table, n: 120, size: 10 });
    await ctx.client.mutation(api.limits.insertN, { table, n: 30, size: 1_000 });
    expect(await ctx.client.query(api.limits.scan, { table })).toBe(150);
    await ctx.client.query(api.limits.ranges, { n: 7 });
    const stats = ctx.backend.engine.transactionStats();
    expect(stats.transactions).toBeGreaterThanOrEqual(4);
    expect(stats.max.documentsWritten).toEqual({ value: 120, functionPath: "limits:insertN", kind: "mutation" });
    expect(stats.max.documentsRead).toEqual({ value: 150, functionPath: "limits:scan", kind: "query" });
    expect(stats.max.databaseQueries).toEqual({ value: 7, functionPath: "limits:ranges", kind: "query" });
    expect(stats.max.bytesWritten.value).toBeGreaterThan(30 * 1_000);
    expect(stats.max.bytesWritten.functionPath).toBe("limits:insertN");
    expect(stats.max.bytesRead.value).toBeGreaterThan(stats.max.bytesWritten.value);
    expect(stats.max.executionMs.value).toBeGreaterThan(0);
    expect(stats.limits).toMatchObject({ ...LIMITS, executionTimeMs: 1_000 });
    const after = ctx.backend.engine.transactionStats({ reset: true });
    expect(after.max.documentsRead.value).toBe(150);
    expect(ctx.backend.engine.transactionStats().max.documentsRead).toEqual({
      value: 0,
      functionPath: null,
      kind: null,
    });
  });
});
