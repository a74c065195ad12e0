/**
 * One committed transaction's writes in a compact, transferable form, and the code that applies
 * it to SQLite. The engine packs a batch on the main thread (`packBatch`); the storage writer
 * thread (storage-worker.ts) applies it (`BatchApplier`) on its own connection: it derives index
 * keys and search entries from the old and new documents and writes rows, index entries and
 * search rows, so that work overlaps with running the next function.
 */
import type Database from "better-sqlite3";
import { jsonToConvex, type JSONValue, type Value } from "convex/values";
import { DocShapes, splitObject, type SplitObject } from "./doc-shapes.js";
import { IndexParts } from "./index-parts.js";
import { DocKeys, searchEntry } from "./indexkey.js";
import type { DbIndexDef, DocWrite, IndexDef, SearchIndexDef } from "./storage-types.js";

/** the meta key of the last batch applied (its lsn): storage-journal.ts replays the batches after it */
export const APPLIED_LSN_KEY = "appliedLsn";

/** rows per multi-row INSERT statement */
const MULTI_ROWS = 64;

export type PackedBatch = {
  /** this process's number of the batch (the engine's durability waits count these) */
  ticket: number;
  /** its log sequence number, increasing across restarts (storage-journal.ts) */
  lsn: number;
  /** bumped by every table/index change; the writer reloads its catalog when it differs */
  catalogVersion: number;
  ids: string[];
  tables: Int32Array;
  isNew: Uint8Array;
  jsons: Array<string | null>;
  meta: Array<[string, string]>;
  deltas: Array<[number, number]>;
};

export function packBatch(
  ticket: number,
  lsn: number,
  catalogVersion: number,
  writes: DocWrite[],
  meta: Array<[string, string]>,
  deltas: Map<number, number>,
): PackedBatch {
  const n = writes.length;
  const ids = new Array<string>(n);
  const jsons = new Array<string | null>(n);
  const tables = new Int32Array(n);
  const isNew = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const w = writes[i];
    ids[i] = w.id;
    jsons[i] = w.json;
    tables[i] = w.tableNumber;
    isNew[i] = w.isNew ? 1 : 0;
  }
  const deltaList: Array<[number, number]> = [];
  for (const [tbl, d] of deltas) if (d !== 0) deltaList.push([tbl, d]);
  return { ticket, lsn, catalogVersion, ids, tables, isNew, jsons, meta, deltas: deltaList };
}

/**
 * The indexes the writer maintains, per table number (by_id is the documents table itself), and
 * the top-level fields they read (`roots`).
 */
type WriterCatalog = Map<number, { db: DbIndexDef[]; search: SearchIndexDef[]; roots: Set<string> }>;

/**
 * The fields of a stored document that its indexes read: only those are turned from their stored
 * JSON into values (a voter's other fields are never looked at here). `split`: the document's
 * fields as slices of its text (splitObject), when it splits.
 */
function parseStored(json: string, roots: Set<string>, split: SplitObject | null): Record<string, Value> {
  const doc: Record<string, Value> = {};
  if (split) {
    for (let f = 0; f < split.keys.length; f++) {
      const k = split.keys[f];
      const name = k.includes("\\") ? (JSON.parse(k) as string) : k.slice(1, -1);
      if (!roots.has(name)) continue;
      const text = split.values[f];
      // a string without escapes is its text between the quotes
      if (text.charCodeAt(0) === 34 && !text.includes("\\")) {
        doc[name] = text.slice(1, -1);
        continue;
      }
      const v = JSON.parse(text) as JSONValue;
      doc[name] = typeof v === "string" ? v : jsonToConvex(v);
    }
    return doc;
  }
  const raw = JSON.parse(json) as Record<string, JSONValue>;
  for (const f of roots) {
    const v = raw[f];
    if (v !== undefined) doc[f] = typeof v === "string" ? v : jsonToConvex(v);
  }
  return doc;
}

/** A new index entry as its idx row: `i` (the index, or minus its part), `k` (latin1, DocKeys), its document's row. */
type Entry = { i: number; k: string; seq: number };

/** idx order: by `i`, then by key (latin1 strings compare in their bytes' order) */
const byKey = (x: Entry, y: Entry) => x.i - y.i || (x.k < y.k ? -1 : x.k > y.k ? 1 : 0);

/** Applies packed batches to one SQLite connection (a group of them in one transaction). */
export class BatchApplier {
  private multiCache = new Map<string, Database.Statement>();
  private ftsStmts = new Map<number, { del: Database.Statement }>();
  private stmts: {
    rowById: Database.Statement;
    updateDoc: Database.Statement;
    deleteDoc: Database.Statement;
    deleteIdx: Database.Statement;
    setMeta: Database.Statement;
    countDelta: Database.Statement;
    maxSeq: Database.Statement;
  };

  private catalog: WriterCatalog = new Map();
  private catalogVersion = -1;
  /** documents are stored by shape (doc-shapes.ts) */
  private shapes: DocShapes;
  /** index entries are stored by their first value's part (index-parts.ts) */
  private parts: IndexParts;

  constructor(private db: Database.Database) {
    this.shapes = new DocShapes(db);
    this.parts = new IndexParts(db);
    this.stmts = {
      rowById: db.prepare("SELECT seq, json FROM documents WHERE id = ?"),
      updateDoc: db.prepare("UPDATE documents SET json = ? WHERE seq = ?"),
      deleteDoc: db.prepare("DELETE FROM documents WHERE seq = ?"),
      deleteIdx: db.prepare("DELETE FROM idx WHERE i = ? AND k = ?"),
      setMeta: db.prepare("INSERT INTO meta(k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v"),
      countDelta: db.prepare("UPDATE tables SET count = count + ? WHERE number = ?"),
      maxSeq: db.prepare("SELECT max(seq) AS m FROM documents"),
    };
  }

  private loadCatalog(version: number) {
    const numbers = new Map<string, number>();
    for (const t of this.db.prepare("SELECT name, number FROM tables").all() as Array<{ name: string; number: number }>)
      numbers.set(t.name, t.number);
    const catalog: WriterCatalog = new Map();
    const rows = this.db.prepare("SELECT id, tbl, name, kind, spec FROM indexes").all() as Array<{
      id: number;
      tbl: string;
      name: string;
      kind: string;
      spec: string;
    }>;
    for (const r of rows) {
      const tn = numbers.get(r.tbl);
      if (tn === undefined || (r.kind === "db" && r.name === "by_id")) continue;
      const def = { id: r.id, table: r.tbl, name: r.name, kind: r.kind, ...JSON.parse(r.spec) } as IndexDef;
      let entry = catalog.get(tn);
      if (!entry) catalog.set(tn, (entry = { db: [], search: [], roots: new Set() }));
      if (def.kind === "db") entry.db.push(def);
      else entry.search.push(def);
      const paths = def.kind === "db" ? def.fields : [def.searchField, ...def.filterFields];
      for (const p of paths) {
        entry.roots.add(p.split(".")[0]);
      }
    }
    this.catalog = catalog;
    this.catalogVersion = version;
    // an index made or dropped: what the parts knew of an index id may be another index's now
    this.parts.reset();
  }

  private multi(sql: string, rowParams: number, rows: number): Database.Statement {
    const key = `${sql}|${rows}`;
    let stmt = this.multiCache.get(key);
    if (!stmt) {
      const tuple = `(${new Array(rowParams).fill("?").join(", ")})`;
      stmt = this.db.prepare(`${sql} VALUES ${new Array(rows).fill(tuple).join(", ")}`);
      this.multiCache.set(key, stmt);
    }
    return stmt;
  }

  /** Runs `sql VALUES (...), (...)` over flattened parameters, MULTI_ROWS rows per statement. */
  private insertRows(sql: string, rowParams: number, params: unknown[]) {
    const rows = params.length / rowParams;
    if (rows <= MULTI_ROWS) {
      if (rows > 0) this.multi(sql, rowParams, rows).run(params);
      return;
    }
    let i = 0;
    const stmt = this.multi(sql, rowParams, MULTI_ROWS);
    const chunk = MULTI_ROWS * rowParams;
    for (; i + MULTI_ROWS <= rows; i += MULTI_ROWS) stmt.run(params.slice(i * rowParams, i * rowParams + chunk));
    if (i < rows) this.multi(sql, rowParams, rows - i).run(params.slice(i * rowParams));
  }

  private ftsDelete(indexId: number): Database.Statement {
    let s = this.ftsStmts.get(indexId);
    if (!s) this.ftsStmts.set(indexId, (s = { del: this.db.prepare(`DELETE FROM fts_${indexId} WHERE rowid = ?`) }));
    return s.del;
  }

  /**
   * Applies batches, in order, atomically: in one SQLite transaction (storage-worker.ts groups an
   * import's consecutive batches). New documents get consecutive row numbers after the current
   * maximum (what SQLite would pick); index entries are inserted in key order, many rows per
   * statement.
   */
  apply(...batches: PackedBatch[]) {
    // IMMEDIATE: take the write lock first (waiting out a checkpoint or another process), rather
    // than read and then fail to upgrade.
    try {
      this.db
        .transaction(() => {
          for (const b of batches) this.applyInTransaction(b);
        })
        .immediate();
    } catch (e) {
      this.shapes.rolledBack();
      this.parts.rolledBack();
      throw e;
    }
    this.shapes.committed();
    this.parts.committed();
  }

  private applyInTransaction(b: PackedBatch) {
    if (b.catalogVersion !== this.catalogVersion) this.loadCatalog(b.catalogVersion);
    const n = b.ids.length;
    let nextSeq = -1;
    const docRows: unknown[] = [];
    const inserts = new Map<number, Entry[]>();
    const ftsInserts = new Map<number, unknown[]>();
    for (let i = 0; i < n; i++) {
      const json = b.jsons[i];
      // split once: the stored form and the index fields both come from its slices
      const split = json === null ? null : splitObject(json);
      let seq = -1;
      let oldDoc: Record<string, Value> | null = null;
      const indexes = this.catalog.get(b.tables[i]);
      if (!b.isNew[i]) {
        const row = this.stmts.rowById.get(b.ids[i]) as { seq: number; json: string } | undefined;
        if (row) {
          seq = row.seq;
          if (indexes) {
            const old = this.shapes.expand(b.ids[i], row.json);
            oldDoc = parseStored(old, indexes.roots, splitObject(old));
          }
          if (json === null) this.stmts.deleteDoc.run(seq);
          else this.stmts.updateDoc.run(this.shapes.compact(b.ids[i], json, split), seq);
        }
      }
      if (seq < 0) {
        if (json === null) continue;
        if (nextSeq < 0) nextSeq = (this.stmts.maxSeq.get() as { m: number | null }).m ?? 0;
        seq = ++nextSeq;
        docRows.push(seq, b.ids[i], b.tables[i], this.shapes.compact(b.ids[i], json, split));
      }
      if (!indexes) continue;
      const newDoc = json === null ? null : parseStored(json, indexes.roots, split);
      const oldKeys = oldDoc ? new DocKeys(oldDoc, b.ids[i]) : null;
      const newKeys = newDoc ? new DocKeys(newDoc, b.ids[i]) : null;
      // every index the writer keeps ends in _creationTime and _id (catalog.ts; by_id is the documents table)
      for (const ix of indexes.db) {
        const f0 = ix.fields[0];
        const oldFirst = oldKeys ? oldKeys.field(f0) : null;
        const oldRest = oldKeys ? oldKeys.rest(ix.fields) : null;
        const newFirst = newKeys ? newKeys.field(f0) : null;
        const newRest = newKeys ? newKeys.rest(ix.fields) : null;
        if (oldRest !== null && oldFirst === newFirst && oldRest === newRest) continue;
        if (oldFirst !== null && oldRest !== null) {
          const p = this.parts.partFor(ix.id, oldFirst);
          this.stmts.deleteIdx.run(
            p === null ? ix.id : -p,
            Buffer.from(p === null ? oldFirst + oldRest : oldRest, "latin1"),
          );
        }
        if (newFirst !== null && newRest !== null) {
          let list = inserts.get(ix.id);
          if (!list) inserts.set(ix.id, (list = []));
          const p = this.parts.partFor(ix.id, newFirst, true);
          list.push(p === null ? { i: ix.id, k: newFirst + newRest, seq } : { i: -p, k: newRest, seq });
        }
      }
      for (const ix of indexes.search) {
        const before = oldDoc ? searchEntry(ix, oldDoc) : null;
        const after = newDoc ? searchEntry(ix, newDoc) : null;
        if (before && after && before.text === after.text && before.filters === after.filters) continue;
        if (before) this.ftsDelete(ix.id).run(seq);
        if (after) {
          let list = ftsInserts.get(ix.id);
          if (!list) ftsInserts.set(ix.id, (list = []));
          list.push(seq, after.text, after.filters);
        }
      }
    }
    if (docRows.length > 0) this.insertRows("INSERT INTO documents(seq, id, tbl, json)", 4, docRows);
    for (const list of inserts.values()) {
      // Mostly already ordered (creation time, counters); sorted keys keep B-tree writes local.
      // Latin1 strings compare in the keys' byte order, without a call into Buffer.compare.
      list.sort(byKey);
      const params: unknown[] = new Array(list.length * 3);
      for (let j = 0; j < list.length; j++) {
        const e = list[j];
        params[j * 3] = e.i;
        params[j * 3 + 1] = Buffer.from(e.k, "latin1");
        params[j * 3 + 2] = e.seq;
      }
      this.insertRows("INSERT INTO idx(i, k, seq)", 3, params);
    }
    for (const [indexId, params] of ftsInserts) this.insertRows(`INSERT INTO fts_${indexId}(rowid, t, f)`, 3, params);
    for (const [k, v] of b.meta) this.stmts.setMeta.run(k, v);
    // with the batch, atomically: a journaled batch up to this lsn is in the database
    this.stmts.setMeta.run(APPLIED_LSN_KEY, String(b.lsn));
    for (const [tbl, d] of b.deltas) this.stmts.countDelta.run(d, tbl);
  }
}
