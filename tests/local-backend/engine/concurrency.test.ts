/**
 * Mutations run concurrently under optimistic concurrency control (functions.ts, commit.ts):
 * overlapping read-modify-writes of one document never lose an update, disjoint ones commit
 * without running again, and a mutation under heavy contention ends holding the write lock.
 */
import { describe, expect, it } from "vitest";
import { OPTIMISTIC_ATTEMPTS } from "../../../local-backend/src/functions";
import { YIELD_AFTER_MS } from "../../../local-backend/src/realm-exec";
import { useEngine } from "./helpers";

const t = useEngine();

describe("engine: optimistic concurrency", () => {
  it("loses no update when overlapping mutations read and write one document", async () => {
    await t.c.mutation("tx:increment", { name: "shared" });
    const before = t.engine.concurrency();
    const n = 12;
    const results = await Promise.all(
      Array.from({ length: n }, () => t.c.mutation("tx:incrementWithPause", { name: "shared" })),
    );
    expect(await t.c.query("tx:getCounter", { name: "shared" })).toBe(n + 1);
    // each saw a distinct value: they are serializable
    expect(new Set(results).size).toBe(n);
    const after = t.engine.concurrency();
    // all n read before any committed (each pauses between its read and its write)
    expect(after.conflicts - before.conflicts).toBeGreaterThanOrEqual(n - 1);
  });

  it("a client's mutation run again after a conflict gets its arguments again (it took them over)", async () => {
    await t.c.mutation("tx:increment", { name: "pipelined" });
    const before = t.engine.concurrency();
    const n = 6;
    const reqs = Array.from({ length: n }, () => ({
      path: "tx:incrementWithPause",
      args: { name: "pipelined" },
      identity: null,
    }));
    const runs = await Promise.all(reqs.map((r) => t.engine.runMutationPipelined(r)));
    const outcomes = await Promise.all(runs.map((r) => r.result));
    expect(outcomes.map((o) => o.outcome.status)).toEqual(Array(n).fill("success"));
    expect(await t.c.query("tx:getCounter", { name: "pipelined" })).toBe(n + 1);
    expect(t.engine.concurrency().conflicts - before.conflicts).toBeGreaterThan(0);
    // the requests no longer hold the arguments' objects while the mutations run
    expect(reqs.map((r) => r.args)).toEqual(Array(n).fill(null));
  });

  it("a mutation that keeps conflicting ends holding the right to commit", async () => {
    await t.c.mutation("tx:increment", { name: "contended" });
    const before = t.engine.concurrency();
    const n = 8;
    // each computes past YIELD_AFTER_MS between its read and its write: the others read and commit meanwhile
    const results = await Promise.all(
      Array.from({ length: n }, () =>
        t.c.mutation("tx:incrementWithLongPause", { name: "contended", ms: 2 * YIELD_AFTER_MS }),
      ),
    );
    expect(await t.c.query("tx:getCounter", { name: "contended" })).toBe(n + 1);
    expect(new Set(results).size).toBe(n);
    const after = t.engine.concurrency();
    // the last ones conflicted OPTIMISTIC_ATTEMPTS times and ran holding the lock
    expect(after.exclusiveRuns - before.exclusiveRuns).toBeGreaterThan(0);
    expect(n).toBeGreaterThan(OPTIMISTIC_ATTEMPTS);
  });

  it("commits overlapping mutations of disjoint documents without running any again", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `own-${i}`);
    for (const name of names) await t.c.mutation("tx:increment", { name });
    const before = t.engine.concurrency();
    await Promise.all(names.map((name) => t.c.mutation("tx:incrementWithPause", { name })));
    for (const name of names) expect(await t.c.query("tx:getCounter", { name })).toBe(2);
    expect(t.engine.concurrency().conflicts).toBe(before.conflicts);
  });

  it("runs again a mutation whose index range another one inserted into meanwhile", async () => {
    // both find no counter "fresh" and would insert one: only one insert may win
    const before = t.engine.concurrency();
    const results = await Promise.all([
      t.c.mutation("tx:incrementWithPause", { name: "fresh" }),
      t.c.mutation("tx:incrementWithPause", { name: "fresh" }),
    ]);
    expect(results.sort()).toEqual([1, 2]);
    expect(await t.c.query("tx:getCounter", { name: "fresh" })).toBe(2);
    expect(t.engine.concurrency().conflicts - before.conflicts).toBe(1);
  });

  it("runs a query again when a commit made while it ran wrote what it read: it never sees half a transaction", async () => {
    await t.c.mutation("tx:incrementPair", { a: "pair-a", b: "pair-b" });
    const before = t.engine.concurrency().conflicts;
    for (let i = 0; i < 10; i++) {
      const read = t.engine.runQuery({
        path: "tx:readPairWithPause",
        args: { a: "pair-a", b: "pair-b" },
        identity: null,
      });
      // commits between the query's two reads (they pause for nested queries)
      await t.c.mutation("tx:incrementPair", { a: "pair-a", b: "pair-b" });
      const { outcome } = await read;
      expect(outcome.status).toBe("success");
      const [first, second] = (outcome as { value: number[] }).value;
      expect(first).toBe(second);
    }
    expect(t.engine.concurrency().conflicts).toBeGreaterThan(before);
  });

  it("lets a request that arrives during a long mutation run before the mutation ends (it yields every few ms)", async () => {
    expect(YIELD_AFTER_MS).toBeLessThan(20);
    await t.c.mutation("tx:longBatch", { name: "warm", steps: 2 });
    const order: string[] = [];
    const long = t.c.mutation("tx:longBatch", { name: "long", steps: 80 }).then(() => order.push("mutation"));
    // a teammate's query, arriving once the mutation is running (the next turn of the event loop)
    await new Promise((r) => setTimeout(r, 0));
    await t.c.query("tx:getCounter", { name: "other" }).then(() => order.push("query"));
    await long;
    expect(order).toEqual(["query", "mutation"]);
  });
});
