/**
 * Which run the code executing belongs to (runtime.ts `runScopes`): queries and mutations in the
 * function realm are named by their pumps, with no AsyncLocalStorage; everything else is scoped by
 * one that is enabled only while a run is in flight, so the engine's thread carries no promise
 * hooks while it serves queries and mutations.
 */
import { describe, expect, it } from "vitest";
import { ScopedStorage } from "../../../local-backend/src/runtime";
import { caller, useEngine } from "./helpers";

type AsyncWrap = { async_hook_fields: Uint32Array; constants: { kInit: number } };
function initHooks(): number {
  const quiet = process.noDeprecation;
  process.noDeprecation = true;
  try {
    const b = (process as unknown as { binding(n: string): AsyncWrap }).binding("async_wrap");
    return b.async_hook_fields[b.constants.kInit];
  } finally {
    process.noDeprecation = quiet;
  }
}

describe("ScopedStorage", () => {
  it("keeps its store through awaits and removes the promise hooks after its last run", async () => {
    const s = new ScopedStorage<string>();
    const base = initHooks();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = s.run("a", async () => {
      await gate;
      return s.getStore();
    });
    const second = s.run("b", async () => {
      await Promise.resolve();
      return s.getStore();
    });
    expect(initHooks()).toBe(base + 1);
    expect(await second).toBe("b");
    // the first run is still in flight: its hooks stay
    expect(initHooks()).toBe(base + 1);
    release();
    expect(await first).toBe("a");
    expect(initHooks()).toBe(base);
    expect(s.getStore()).toBeUndefined();
  });

  it("ends a synchronous or throwing run at once", async () => {
    const s = new ScopedStorage<number>();
    const base = initHooks();
    expect(s.run(1, () => s.getStore())).toBe(1);
    expect(initHooks()).toBe(base);
    expect(() =>
      s.run(2, () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    await expect(s.run(3, async () => Promise.reject(new Error("later")))).rejects.toThrow("later");
    expect(initHooks()).toBe(base);
    // again after the hooks went
    expect(await s.run(4, async () => (await Promise.resolve(), s.getStore()))).toBe(4);
  });
});

describe("runs in the function realm", () => {
  const hooksSeen: number[] = [];
  const ctx = useEngine({ log: () => hooksSeen.push(initHooks()) });

  it("know their run without promise hooks, also when they interleave", async () => {
    const { engine } = ctx;
    const c = caller(engine);
    await c.mutation("tx:scopedAcrossPause", { tag: "warm" });
    hooksSeen.length = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        engine.runMutation({ path: "tx:scopedAcrossPause", args: { tag: `run${i}` }, identity: null }),
      ),
    );
    outcomes.forEach(({ outcome }, i) => {
      expect(outcome.status).toBe("success");
      expect(outcome.status === "success" && outcome.value).toBe(true);
      expect(outcome.logLines).toEqual([`[LOG] 'run${i}' 'before'`, `[LOG] 'run${i}' 'after'`]);
    });
    // each line was logged from inside its run's pump: no hook was installed then, nor after
    expect(hooksSeen.length).toBe(16);
    expect(hooksSeen.every((n) => n === 0)).toBe(true);
    expect(initHooks()).toBe(0);
    // a fixed clock and a seeded Math.random still hold in the realm
    expect(await c.query("tx:clock")).toEqual({ same: true, random: true });
  });
});
