/**
 * `ctx.vectorSearch` in actions: a brute-force cosine scan over the table (correct, but linear in
 * the table size), filtered like `.filter()` expressions.
 */
import type { Catalog } from "./catalog.js";
import type { VectorQuery, VectorResults } from "./engine-host.js";
import { evalExpr } from "./filter.js";
import { parseDoc } from "./json-shape.js";
import type { Store } from "./storage.js";

export type VectorSearchHost = {
  readonly catalog: Catalog;
  readonly store: Pick<Store, "iterateTable">;
  withReadLock<T>(fn: () => T | Promise<T>): Promise<T>;
};

export async function vectorSearch(host: VectorSearchHost, query: VectorQuery): Promise<VectorResults> {
  const [table, indexName] = query.indexName.split(".");
  const st = host.catalog.schemaByTable.get(table);
  const vi = st?.vectorIndexes?.find((v) => v.indexDescriptor === indexName);
  if (!vi && host.catalog.isStaged(table, indexName)) {
    // Convex's IndexStagedError (indexing/src/index_registry.rs), as for database and search indexes
    throw new Error(`Index ${query.indexName} is currently staged and not available to query until it is enabled.`);
  }
  if (!vi) throw new Error(`Vector index ${query.indexName} not found.`);
  const tn = host.catalog.tableNumber(table);
  if (tn === undefined) return { results: [] };
  const limit = Math.min(query.limit ?? 10, 256);
  const filter = query.expressions ?? null;
  return host.withReadLock(() => {
    const scored: Array<{ _id: string; _score: number }> = [];
    for (const row of host.store.iterateTable(tn)) {
      const doc = parseDoc(row.json);
      if (filter && evalExpr(filter, doc) !== true) continue;
      const vec = doc[vi.vectorField];
      if (!Array.isArray(vec)) continue;
      let dot = 0;
      let na = 0;
      let nb = 0;
      for (let i = 0; i < query.vector.length; i++) {
        const a = query.vector[i];
        const b = vec[i] as number;
        dot += a * b;
        na += a * a;
        nb += b * b;
      }
      scored.push({ _id: row.id, _score: na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb) });
    }
    scored.sort((a, b) => b._score - a._score);
    return { results: scored.slice(0, limit) };
  });
}
