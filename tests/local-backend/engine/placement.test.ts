/**
 * Where queries and mutations run (placement.ts): a mutation whose own work is heavy moves to the
 * action pool's workers after its first run, and then holds nobody back: queries and other
 * mutations are answered while several of it keep their threads busy. Asserted on order and
 * counts, never on time.
 */
import { describe, expect, it } from "vitest";
import { useEngine } from "./helpers";

const t = useEngine();

describe("engine: placement of heavy functions", () => {
  it("runs a light mutation on the engine's thread and a heavy one in a worker once a run proved it heavy", async () => {
    const at = () => t.engine.concurrency().pooledRuns;
    const before = at();
    for (let i = 0; i < 4; i++) await t.c.mutation("tx:increment", { name: "light" });
    expect(at()).toBe(before);
    // the first run compiles (not counted), the second is measured: 200 ms of wall time, of its
    // own at least the 20 ms that make it heavy even on a loaded machine
    await t.c.mutation("tx:busyThenInsert", { name: "heavy-0", ms: 200 });
    await t.c.mutation("tx:busyThenInsert", { name: "heavy-1", ms: 200 });
    expect(at()).toBe(before);
    await t.c.mutation("tx:busyThenInsert", { name: "heavy-2", ms: 200 });
    expect(at()).toBe(before + 1);
    expect(await t.c.query("tx:getCounter", { name: "heavy-2" })).toBe(1);
  });

  it("answers queries and light mutations while heavy mutations keep worker threads busy", async () => {
    let busy = 4;
    const heavy = Array.from({ length: 4 }, (_, i) =>
      t.c.mutation("tx:busyThenInsert", { name: `storm-${i}`, ms: 700 }).then((r) => {
        busy--;
        return r;
      }),
    );
    // on the engine's thread these waited for all four (2.8 s of work)
    await t.c.mutation("tx:increment", { name: "during-storm" });
    expect(await t.c.query("tx:getCounter", { name: "during-storm" })).toBe(1);
    expect(busy).toBeGreaterThan(0);
    expect(await Promise.all(heavy)).toEqual(["storm-0", "storm-1", "storm-2", "storm-3"]);
    for (let i = 0; i < 4; i++) expect(await t.c.query("tx:getCounter", { name: `storm-${i}` })).toBe(1);
  });
});

describe("engine: a query or mutation in a worker", () => {
  const w = useEngine({ functionPlacement: "pool" });

  it("is stopped at its time limit by its own thread's clock and commits nothing", async () => {
    const outcome = await w.c.mutationOutcome("tx:busyThenInsert", { name: "runaway", ms: 600_000 });
    expect(outcome.status).toBe("error");
    expect(outcome.status === "error" && outcome.errorMessage).toContain(
      "Function execution timed out (maximum duration: 1s)",
    );
    expect(await w.c.query("tx:getCounter", { name: "runaway" })).toBeNull();
    expect(w.engine.concurrency().pooledRuns).toBeGreaterThan(0);
  });

  it("fails as it would on the engine's thread, and its writes and reads are its transaction's", async () => {
    const onEngine = await t.c.mutationOutcome("tx:insertThenThrow", { name: "thrown" });
    const inWorker = await w.c.mutationOutcome("tx:insertThenThrow", { name: "thrown" });
    expect(inWorker).toEqual(onEngine);
    expect(await w.c.query("tx:getCounter", { name: "thrown" })).toBeNull();
    // nested calls run on the engine in the worker's transaction: the failed child's writes roll back
    expect(await w.c.mutation("tx:parentCatchesChild")).toEqual({
      caught: "child failed",
      names: ["ok-child", "parent"],
      viaQuery: 7,
    });
  });
});
