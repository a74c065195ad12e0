/**
 * One committed transaction's writes in a compact, transferable form, and the code that applies
 * it to SQLite. The engine packs a batch on the main thread (`packBatch`); the storage writer
 * thread (storage-worker.ts) applies it (`BatchApplier`) on its own connection, so SQLite's
 * B-tree and WAL work for one commit overlaps with running the next function.
 */
import type Database from "better-sqlite3";

/** rows per multi-row INSERT statement */
const MULTI_ROWS = 64;

/** `seq` of a document that does not exist yet */
export const SEQ_NEW = -2;
/** `seq` of an existing document whose row number the writer looks up by id */
export const SEQ_LOOKUP = -1;

export type IndexWrite =
  | { op: "insert"; indexId: number; key: Buffer }
  | { op: "delete"; indexId: number; key: Buffer };
export type SearchWrite = { indexId: number; op: "upsert" | "delete"; text: string; filters: string };

export type DocWrite = {
  id: string;
  tableNumber: number;
  /** null: delete */
  json: string | null;
  /** the document's row number; SEQ_NEW for an insert, SEQ_LOOKUP when not known here */
  seq: number;
  indexWrites: IndexWrite[];
  searchWrites: SearchWrite[];
};

export type PackedBatch = {
  ticket: number;
  ids: string[];
  tables: Int32Array;
  seqs: Float64Array;
  jsons: Array<string | null>;
  /** [docIndex, indexId, op (0 insert, 1 delete), keyStart, keyEnd] per index write */
  idx: Int32Array;
  keys: Uint8Array;
  /** [docIndex, indexId, op (0 upsert, 1 delete), text, filters] per search write, flattened */
  fts: Array<number | string>;
  meta: Array<[string, string]>;
  deltas: Array<[number, number]>;
};

export function packBatch(ticket: number, writes: DocWrite[], meta: Array<[string, string]>, deltas: Map<number, number>): PackedBatch {
  const n = writes.length;
  const ids = new Array<string>(n);
  const jsons = new Array<string | null>(n);
  const tables = new Int32Array(n);
  const seqs = new Float64Array(n);
  let idxCount = 0;
  let keyBytes = 0;
  for (const w of writes) {
    idxCount += w.indexWrites.length;
    for (const iw of w.indexWrites) keyBytes += iw.key.length;
  }
  const idx = new Int32Array(idxCount * 5);
  const keys = Buffer.allocUnsafeSlow(keyBytes);
  const fts: Array<number | string> = [];
  let ip = 0;
  let kp = 0;
  for (let i = 0; i < n; i++) {
    const w = writes[i];
    ids[i] = w.id;
    jsons[i] = w.json;
    tables[i] = w.tableNumber;
    seqs[i] = w.seq;
    for (const iw of w.indexWrites) {
      idx[ip++] = i;
      idx[ip++] = iw.indexId;
      idx[ip++] = iw.op === "insert" ? 0 : 1;
      idx[ip++] = kp;
      kp += iw.key.copy(keys, kp);
      idx[ip++] = kp;
    }
    for (const sw of w.searchWrites) fts.push(i, sw.indexId, sw.op === "upsert" ? 0 : 1, sw.text, sw.filters);
  }
  const deltaList: Array<[number, number]> = [];
  for (const [tbl, d] of deltas) if (d !== 0) deltaList.push([tbl, d]);
  return { ticket, ids, tables, seqs, jsons, idx, keys, fts, meta, deltas: deltaList };
}

/** The buffers a packed batch can hand over to another thread without copying. */
export function transferList(b: PackedBatch): ArrayBuffer[] {
  return [b.tables.buffer, b.seqs.buffer, b.idx.buffer, b.keys.buffer] as ArrayBuffer[];
}

/** Applies packed batches to one SQLite connection, each in one transaction. */
export class BatchApplier {
  private multiCache = new Map<string, Database.Statement>();
  private ftsStmts = new Map<number, { del: Database.Statement }>();
  private stmts: {
    seqById: Database.Statement;
    updateDoc: Database.Statement;
    deleteDoc: Database.Statement;
    deleteIdx: Database.Statement;
    setMeta: Database.Statement;
    countDelta: Database.Statement;
    maxSeq: Database.Statement;
  };

  constructor(private db: Database.Database) {
    this.stmts = {
      seqById: db.prepare("SELECT seq FROM documents WHERE id = ?"),
      updateDoc: db.prepare("UPDATE documents SET json = ? WHERE seq = ?"),
      deleteDoc: db.prepare("DELETE FROM documents WHERE seq = ?"),
      deleteIdx: db.prepare("DELETE FROM idx WHERE i = ? AND k = ?"),
      setMeta: db.prepare("INSERT INTO meta(k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v"),
      countDelta: db.prepare("UPDATE tables SET count = count + ? WHERE number = ?"),
      maxSeq: db.prepare("SELECT max(seq) AS m FROM documents"),
    };
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
   * Applies a batch atomically. New documents get consecutive row numbers after the current
   * maximum (what SQLite would pick); index entries are inserted in key order, many rows per
   * statement.
   */
  apply(b: PackedBatch) {
    // IMMEDIATE: take the write lock first (waiting out a checkpoint or another process), rather
    // than read and then fail to upgrade.
    this.db.transaction(() => this.applyInTransaction(b)).immediate();
  }

  private applyInTransaction(b: PackedBatch) {
    const n = b.ids.length;
    const seqOf = new Float64Array(n);
    const existed = new Uint8Array(n);
    let nextSeq = -1;
    const docRows: unknown[] = [];
    for (let i = 0; i < n; i++) {
      let seq = b.seqs[i];
      if (seq === SEQ_LOOKUP) {
        const row = this.stmts.seqById.get(b.ids[i]) as { seq: number } | undefined;
        seq = row ? row.seq : SEQ_NEW;
      }
      const json = b.jsons[i];
      if (seq !== SEQ_NEW) {
        existed[i] = 1;
        if (json === null) this.stmts.deleteDoc.run(seq);
        else this.stmts.updateDoc.run(json, seq);
      } else if (json !== null) {
        if (nextSeq < 0) nextSeq = (this.stmts.maxSeq.get() as { m: number | null }).m ?? 0;
        seq = ++nextSeq;
        docRows.push(seq, b.ids[i], b.tables[i], json);
      }
      seqOf[i] = seq;
    }
    const keys = Buffer.from(b.keys.buffer, b.keys.byteOffset, b.keys.byteLength);
    const inserts = new Map<number, Array<{ key: Buffer; seq: number }>>();
    for (let p = 0; p < b.idx.length; p += 5) {
      const indexId = b.idx[p + 1];
      const key = keys.subarray(b.idx[p + 3], b.idx[p + 4]);
      if (b.idx[p + 2] === 1) this.stmts.deleteIdx.run(indexId, key);
      else {
        let list = inserts.get(indexId);
        if (!list) inserts.set(indexId, (list = []));
        list.push({ key, seq: seqOf[b.idx[p]] });
      }
    }
    if (docRows.length > 0) this.insertRows("INSERT INTO documents(seq, id, tbl, json)", 4, docRows);
    for (const [indexId, list] of inserts) {
      // Mostly already ordered (creation time, counters); sorted keys keep B-tree writes local.
      list.sort((x, y) => Buffer.compare(x.key, y.key));
      const params: unknown[] = new Array(list.length * 3);
      for (let j = 0; j < list.length; j++) {
        params[j * 3] = indexId;
        params[j * 3 + 1] = list[j].key;
        params[j * 3 + 2] = list[j].seq;
      }
      this.insertRows("INSERT INTO idx(i, k, seq)", 3, params);
    }
    const ftsInserts = new Map<number, unknown[]>();
    for (let p = 0; p < b.fts.length; p += 5) {
      const doc = b.fts[p] as number;
      const indexId = b.fts[p + 1] as number;
      if (existed[doc]) this.ftsDelete(indexId).run(seqOf[doc]);
      if (b.fts[p + 2] === 0) {
        let list = ftsInserts.get(indexId);
        if (!list) ftsInserts.set(indexId, (list = []));
        list.push(seqOf[doc], b.fts[p + 3], b.fts[p + 4]);
      }
    }
    for (const [indexId, params] of ftsInserts) this.insertRows(`INSERT INTO fts_${indexId}(rowid, t, f)`, 3, params);
    for (const [k, v] of b.meta) this.stmts.setMeta.run(k, v);
    for (const [tbl, d] of b.deltas) this.stmts.countDelta.run(d, tbl);
  }
}
