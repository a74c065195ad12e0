/**
 * Ad-hoc code against an engine, for tests and tools (what convex-test's `t.run` offers).
 * Generic: nothing here knows about the app's tables.
 */
import {
  mutationGeneric,
  type GenericDataModel,
  type GenericMutationCtx,
  type StorageActionWriter,
} from "convex/server";
import type { Value } from "convex/values";
import fs from "node:fs";
import path from "node:path";
import type { Catalog } from "./catalog.js";
import type { FunctionOutcome, UserIdentity } from "./engine-api.js";
import type { Store } from "./storage.js";
import type { Tx } from "./transaction.js";

/** What ad-hoc code needs of an engine (`EngineImpl` from engine.ts provides it). */
export type AdhocEngine = {
  readonly catalog: Pick<Catalog, "tables">;
  readonly store: Pick<Store, "iterateTable">;
  readonly filesDir: string;
  systemWrite<T>(fn: (tx: Tx) => T): Promise<T>;
  runAdhocMutation(
    fn: { invokeMutation(args: string): Promise<string> },
    identity: UserIdentity | null,
  ): Promise<FunctionOutcome>;
};

/** A mutation ctx whose storage also has the action-only `store`/`get` (like convex-test's `t.run`). */
export type AdhocCtx<DM extends GenericDataModel = GenericDataModel> = Omit<GenericMutationCtx<DM>, "storage"> & {
  storage: StorageActionWriter;
};

/**
 * Runs `handler` as one top-level mutation (its writes commit together, or not at all when it
 * throws). The result goes through Convex's value encoding, as a function's return value does.
 */
export async function runInMutation<T>(
  engine: AdhocEngine,
  handler: (ctx: AdhocCtx) => Promise<T> | T,
  identity: UserIdentity | null = null,
): Promise<FunctionOutcome> {
  const fn = mutationGeneric({
    args: {},
    handler: async (ctx) => (await handler(ctx as unknown as AdhocCtx)) as Value,
  });
  return engine.runAdhocMutation(fn as unknown as { invokeMutation(args: string): Promise<string> }, identity);
}

/**
 * Deletes every document of every table (user and system: `_storage`, `_scheduled_functions`) and
 * the stored files, in one commit. Tables, indexes and loaded modules stay, so an engine can be
 * reused from a clean state without bundling the functions again.
 */
export async function clearAllData(engine: AdhocEngine): Promise<number> {
  const deleted = await engine.systemWrite((tx) => {
    let n = 0;
    for (const [table, tableNumber] of engine.catalog.tables) {
      const ids: string[] = [];
      for (const row of engine.store.iterateTable(tableNumber)) ids.push(row.id);
      for (const id of ids) tx.write(id, table, null, false);
      n += ids.length;
    }
    return n;
  });
  for (const f of fs.readdirSync(engine.filesDir))
    fs.rmSync(path.join(engine.filesDir, f), { force: true, recursive: true });
  return deleted;
}
