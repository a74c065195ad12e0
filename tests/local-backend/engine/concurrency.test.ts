/**
 * Mutations run concurrently under optimistic concurrency control (functions.ts, commit.ts):
 * overlapping read-modify-writes of one document never lose an update, disjoint ones commit
 * without running again, and a mutation under heavy contention ends holding the write lock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../../../local-backend/src/engine-api";
import { OPTIMISTIC_ATTEMPTS } from "../../../local-backend/src/functions";
import { caller, startEngine } from "./helpers";

let engine: Engine & { dataDir: string };
let c: ReturnType<typeof caller>;

beforeAll(async () => {
  engine = await startEngine({ scheduler: false });
  c = caller(engine);
});
afterAll(async () => {
  await engine.stop();
});

describe("engine: optimistic concurrency", () => {
  it("loses no update when overlapping mutations read and write one document", async () => {
    await c.mutation("tx:increment", { name: "shared" });
    const before = engine.concurrency();
    const n = 12;
    const results = await Promise.all(Array.from({ length: n }, () => c.mutation("tx:incrementWithPause", { name: "shared" })));
    expect(await c.query("tx:getCounter", { name: "shared" })).toBe(n + 1);
    // each saw a distinct value: they are serializable
    expect(new Set(results).size).toBe(n);
    const after = engine.concurrency();
    // all n read before any committed (each pauses between its read and its write)
    expect(after.conflicts - before.conflicts).toBeGreaterThanOrEqual(n - 1);
    // the last ones conflicted OPTIMISTIC_ATTEMPTS times and ran holding the lock
    expect(after.exclusiveRuns - before.exclusiveRuns).toBeGreaterThan(0);
    expect(n).toBeGreaterThan(OPTIMISTIC_ATTEMPTS);
  });

  it("commits overlapping mutations of disjoint documents without running any again", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `own-${i}`);
    for (const name of names) await c.mutation("tx:increment", { name });
    const before = engine.concurrency();
    await Promise.all(names.map((name) => c.mutation("tx:incrementWithPause", { name })));
    for (const name of names) expect(await c.query("tx:getCounter", { name })).toBe(2);
    expect(engine.concurrency().conflicts).toBe(before.conflicts);
  });

  it("runs again a mutation whose index range another one inserted into meanwhile", async () => {
    // both find no counter "fresh" and would insert one: only one insert may win
    const before = engine.concurrency();
    const results = await Promise.all([c.mutation("tx:incrementWithPause", { name: "fresh" }), c.mutation("tx:incrementWithPause", { name: "fresh" })]);
    expect(results.sort()).toEqual([1, 2]);
    expect(await c.query("tx:getCounter", { name: "fresh" })).toBe(2);
    expect(engine.concurrency().conflicts - before.conflicts).toBe(1);
  });

  it("runs a query again when a commit made while it ran wrote what it read: it never sees half a transaction", async () => {
    await c.mutation("tx:incrementPair", { a: "pair-a", b: "pair-b" });
    const before = engine.concurrency().conflicts;
    for (let i = 0; i < 10; i++) {
      const read = engine.runQuery({ path: "tx:readPairWithPause", args: { a: "pair-a", b: "pair-b" }, identity: null });
      // commits between the query's two reads (they pause for nested queries)
      await c.mutation("tx:incrementPair", { a: "pair-a", b: "pair-b" });
      const { outcome } = await read;
      expect(outcome.status).toBe("success");
      const [first, second] = (outcome as { value: number[] }).value;
      expect(first).toBe(second);
    }
    expect(engine.concurrency().conflicts).toBeGreaterThan(before);
  });
});
