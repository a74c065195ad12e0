/**
 * SQLite persistence: documents, index entries (order-preserving BLOB keys in one WITHOUT ROWID
 * table), FTS5 search tables, table/index catalog and metadata. All writes go through
 * `commit()` which applies one mutation's write batch in a single SQLite transaction.
 */
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";

export type IndexKind = "db" | "search";

/** rows per multi-row INSERT statement */
const MULTI_ROWS = 64;

export type DbIndexDef = {
  id: number;
  table: string;
  name: string;
  kind: "db";
  /** full key fields, including the implicit trailing _creationTime/_id */
  fields: string[];
};
export type SearchIndexDef = {
  id: number;
  table: string;
  name: string;
  kind: "search";
  searchField: string;
  filterFields: string[];
};
export type IndexDef = DbIndexDef | SearchIndexDef;

export type StoredRow = { key: Buffer; seq: number; id: string; json: string };

export type IndexWrite =
  | { op: "insert"; indexId: number; key: Buffer }
  | { op: "delete"; indexId: number; key: Buffer };
export type SearchWrite = { indexId: number; op: "upsert" | "delete"; text: string; filters: string };

export type DocWrite = {
  id: string;
  tableNumber: number;
  /** null: delete */
  json: string | null;
  /** existing row number when the document already exists */
  seq: number | null;
  indexWrites: IndexWrite[];
  searchWrites: SearchWrite[];
};

export class Store {
  readonly db: Database.Database;
  private stmts: {
    getMeta: Database.Statement;
    setMeta: Database.Statement;
    getDoc: Database.Statement;
    getDocBySeq: Database.Statement;
    insertDoc: Database.Statement;
    updateDoc: Database.Statement;
    deleteDoc: Database.Statement;
    insertIdx: Database.Statement;
    deleteIdx: Database.Statement;
    countDelta: Database.Statement;
    maxSeq: Database.Statement;
  };
  private multiCache = new Map<string, Database.Statement>();
  private byIdCache = new Map<string, Database.Statement>();
  private scanCache = new Map<string, Database.Statement>();
  private ftsStmts = new Map<number, { insert: Database.Statement; del: Database.Statement }>();

  constructor(dataDir: string) {
    fs.mkdirSync(dataDir, { recursive: true });
    this.db = new Database(path.join(dataDir, "db.sqlite3"));
    this.db.pragma("journal_mode = WAL");
    // NORMAL in WAL mode keeps every committed transaction across process kills (not power loss).
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("cache_size = -131072");
    this.db.pragma("temp_store = MEMORY");
    // A mutation with many random-key index entries (emails, names, search rows) dirties
    // thousands of pages; checkpointing every 1000 pages (the default) copied them back to the
    // database file after nearly every commit. A 64 MB WAL lets repeated page writes coalesce.
    this.db.pragma("wal_autocheckpoint = 16384");
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS tables(name TEXT PRIMARY KEY, number INTEGER NOT NULL UNIQUE, count INTEGER NOT NULL DEFAULT 0);
      CREATE TABLE IF NOT EXISTS indexes(id INTEGER PRIMARY KEY, tbl TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, spec TEXT NOT NULL, UNIQUE(tbl, name));
      CREATE TABLE IF NOT EXISTS documents(seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tbl INTEGER NOT NULL, json TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS idx(i INTEGER NOT NULL, k BLOB NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY(i, k)) WITHOUT ROWID;
    `);
    this.stmts = {
      getMeta: this.db.prepare("SELECT v FROM meta WHERE k = ?"),
      setMeta: this.db.prepare("INSERT INTO meta(k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v"),
      getDoc: this.db.prepare("SELECT seq, json FROM documents WHERE id = ?"),
      getDocBySeq: this.db.prepare("SELECT id, json FROM documents WHERE seq = ?"),
      insertDoc: this.db.prepare("INSERT INTO documents(id, tbl, json) VALUES (?, ?, ?)"),
      updateDoc: this.db.prepare("UPDATE documents SET json = ? WHERE seq = ?"),
      deleteDoc: this.db.prepare("DELETE FROM documents WHERE seq = ?"),
      insertIdx: this.db.prepare("INSERT INTO idx(i, k, seq) VALUES (?, ?, ?)"),
      deleteIdx: this.db.prepare("DELETE FROM idx WHERE i = ? AND k = ?"),
      countDelta: this.db.prepare("UPDATE tables SET count = count + ? WHERE number = ?"),
      maxSeq: this.db.prepare("SELECT max(seq) AS m FROM documents"),
    };
    // Layout 2: the by_id index is served by the documents table's unique id column, so it has
    // no entries in idx. Data dirs written before hold by_id entries; drop them once.
    if (this.getMeta("layout") !== "2") {
      this.db.transaction(() => {
        this.db.prepare("DELETE FROM idx WHERE i IN (SELECT id FROM indexes WHERE kind = 'db' AND name = 'by_id')").run();
        this.setMeta("layout", "2");
      })();
    }
  }

  close() {
    this.readTx = false;
    this.db.close();
  }

  private readTx = false;
  private beginStmt: Database.Statement | null = null;
  private commitStmt: Database.Statement | null = null;
  /**
   * Opens a read transaction (one WAL snapshot) for a run of reads: every statement then skips
   * taking and releasing its own. Callers hold the engine's write lock (nothing else runs);
   * `endRead()` or the next `commit()` closes it.
   */
  beginRead() {
    if (this.readTx || this.db.inTransaction) return;
    (this.beginStmt ??= this.db.prepare("BEGIN")).run();
    this.readTx = true;
  }
  endRead() {
    if (!this.readTx) return;
    this.readTx = false;
    if (this.db.inTransaction) (this.commitStmt ??= this.db.prepare("COMMIT")).run();
  }

  getMeta(k: string): string | undefined {
    const row = this.stmts.getMeta.get(k) as { v: string } | undefined;
    return row?.v;
  }
  setMeta(k: string, v: string) {
    this.stmts.setMeta.run(k, v);
  }

  loadTables(): Array<{ name: string; number: number; count: number }> {
    return this.db.prepare("SELECT name, number, count FROM tables").all() as Array<{ name: string; number: number; count: number }>;
  }
  createTable(name: string, number: number) {
    this.db.prepare("INSERT INTO tables(name, number) VALUES (?, ?)").run(name, number);
  }
  renumberTable(name: string, number: number) {
    this.db.prepare("UPDATE tables SET number = ? WHERE name = ?").run(number, name);
  }

  loadIndexes(): IndexDef[] {
    const rows = this.db.prepare("SELECT id, tbl, name, kind, spec FROM indexes").all() as Array<{
      id: number;
      tbl: string;
      name: string;
      kind: IndexKind;
      spec: string;
    }>;
    return rows.map((r) => ({ id: r.id, table: r.tbl, name: r.name, kind: r.kind, ...JSON.parse(r.spec) }) as IndexDef);
  }

  createIndex(def: Omit<DbIndexDef, "id"> | Omit<SearchIndexDef, "id">): IndexDef {
    const spec =
      def.kind === "db"
        ? JSON.stringify({ fields: def.fields })
        : JSON.stringify({ searchField: def.searchField, filterFields: def.filterFields });
    const info = this.db.prepare("INSERT INTO indexes(tbl, name, kind, spec) VALUES (?, ?, ?, ?)").run(def.table, def.name, def.kind, spec);
    const id = Number(info.lastInsertRowid);
    if (def.kind === "search") {
      this.db.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS fts_${id} USING fts5(t, f, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0")`,
      );
    }
    return { ...def, id };
  }

  dropIndex(def: IndexDef) {
    this.db.prepare("DELETE FROM indexes WHERE id = ?").run(def.id);
    if (def.kind === "db") this.db.prepare("DELETE FROM idx WHERE i = ?").run(def.id);
    else this.db.exec(`DROP TABLE IF EXISTS fts_${def.id}`);
    this.ftsStmts.delete(def.id);
  }

  getDoc(id: string): { seq: number; json: string } | undefined {
    return this.stmts.getDoc.get(id) as { seq: number; json: string } | undefined;
  }
  getDocBySeq(seq: number): { id: string; json: string } | undefined {
    return this.stmts.getDocBySeq.get(seq) as { id: string; json: string } | undefined;
  }

  /**
   * Up to `limit` entries of index `indexId` in [lo, hi) (asc) or (lo, hi] reversed (desc),
   * joined with their documents.
   */
  scan(indexId: number, lo: Buffer, hi: Buffer, order: "asc" | "desc", limit: number, loInclusive = true, hiInclusive = false): StoredRow[] {
    // The usual limits (index streams read batches of 8, 32, ... 2048) are literals in the SQL:
    // a bound LIMIT parameter costs more than the whole seek of a point lookup.
    const literal = Number.isInteger(limit) && limit > 0 && limit <= 4096 && (limit & (limit - 1)) === 0;
    const cacheKey = `${order}${loInclusive ? 1 : 0}${hiInclusive ? 1 : 0}${literal ? limit : "?"}`;
    let stmt = this.scanCache.get(cacheKey);
    if (!stmt) {
      stmt = this.db.prepare(
        `SELECT idx.k AS key, idx.seq AS seq, d.id AS id, d.json AS json FROM idx JOIN documents d ON d.seq = idx.seq
         WHERE idx.i = ? AND idx.k ${loInclusive ? ">=" : ">"} ? AND idx.k ${hiInclusive ? "<=" : "<"} ?
         ORDER BY idx.k ${order === "asc" ? "ASC" : "DESC"} LIMIT ${literal ? limit : "?"}`,
      );
      this.scanCache.set(cacheKey, stmt);
    }
    return (literal ? stmt.all(indexId, lo, hi) : stmt.all(indexId, lo, hi, limit)) as StoredRow[];
  }

  /**
   * Up to `limit` documents of table `tbl` by id, ids in [lo, hi] (null: unbounded; `loInclusive`
   * / `hiInclusive` false make that end exclusive), ascending or descending by id.
   */
  scanDocsById(
    tbl: number,
    lo: string | null,
    loInclusive: boolean,
    hi: string | null,
    hiInclusive: boolean,
    order: "asc" | "desc",
    limit: number,
  ): Array<{ seq: number; id: string; json: string }> {
    const cacheKey = `${lo === null ? "-" : loInclusive ? "i" : "e"}${hi === null ? "-" : hiInclusive ? "i" : "e"}${order}`;
    let stmt = this.byIdCache.get(cacheKey);
    if (!stmt) {
      const conds = ["tbl = @tbl"];
      if (lo !== null) conds.push(`id ${loInclusive ? ">=" : ">"} @lo`);
      if (hi !== null) conds.push(`id ${hiInclusive ? "<=" : "<"} @hi`);
      stmt = this.db.prepare(
        `SELECT seq, id, json FROM documents INDEXED BY sqlite_autoindex_documents_1 WHERE ${conds.join(" AND ")} ORDER BY id ${order === "asc" ? "ASC" : "DESC"} LIMIT @limit`,
      );
      this.byIdCache.set(cacheKey, stmt);
    }
    const params: Record<string, unknown> = { tbl, limit };
    if (lo !== null) params.lo = lo;
    if (hi !== null) params.hi = hi;
    return stmt.all(params) as Array<{ seq: number; id: string; json: string }>;
  }

  countIndexRange(indexId: number): number {
    return (this.db.prepare("SELECT count(*) AS c FROM idx WHERE i = ?").get(indexId) as { c: number }).c;
  }

  private fts(indexId: number) {
    let s = this.ftsStmts.get(indexId);
    if (!s) {
      s = {
        insert: this.db.prepare(`INSERT INTO fts_${indexId}(rowid, t, f) VALUES (?, ?, ?)`),
        del: this.db.prepare(`DELETE FROM fts_${indexId} WHERE rowid = ?`),
      };
      this.ftsStmts.set(indexId, s);
    }
    return s;
  }

  searchFts(indexId: number, match: string, limit: number): Array<{ seq: number; score: number }> {
    const stmt = this.db.prepare(
      `SELECT rowid AS seq, bm25(fts_${indexId}, 1.0, 0.0) AS score FROM fts_${indexId} WHERE fts_${indexId} MATCH ? ORDER BY score LIMIT ?`,
    );
    return stmt.all(match, limit) as Array<{ seq: number; score: number }>;
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

  /**
   * Applies a batch of document writes atomically. New documents get consecutive row numbers
   * after the current maximum (what SQLite would pick); index entries are inserted in key order,
   * many rows per statement.
   */
  commit(writes: DocWrite[], meta: Array<[string, string]>, tableCountDeltas: Map<number, number>) {
    this.endRead();
    const run = this.db.transaction(() => {
      let nextSeq = 0;
      for (const w of writes) {
        if (w.seq === null && w.json !== null) {
          nextSeq = (this.stmts.maxSeq.get() as { m: number | null }).m ?? 0;
          break;
        }
      }
      const docRows: unknown[] = [];
      const idxInserts = new Map<number, Array<{ key: Buffer; seq: number }>>();
      const ftsDeletes = new Map<number, number[]>();
      const ftsInserts = new Map<number, unknown[]>();
      for (const w of writes) {
        let seq = w.seq;
        if (w.json === null) {
          if (seq !== null) this.stmts.deleteDoc.run(seq);
        } else if (seq === null) {
          seq = ++nextSeq;
          docRows.push(seq, w.id, w.tableNumber, w.json);
        } else {
          this.stmts.updateDoc.run(w.json, seq);
        }
        for (const iw of w.indexWrites) {
          if (iw.op === "delete") this.stmts.deleteIdx.run(iw.indexId, iw.key);
          else {
            let list = idxInserts.get(iw.indexId);
            if (!list) idxInserts.set(iw.indexId, (list = []));
            list.push({ key: iw.key, seq: seq! });
          }
        }
        for (const sw of w.searchWrites) {
          if (w.seq !== null) {
            let list = ftsDeletes.get(sw.indexId);
            if (!list) ftsDeletes.set(sw.indexId, (list = []));
            list.push(w.seq);
          }
          if (sw.op === "upsert") {
            let list = ftsInserts.get(sw.indexId);
            if (!list) ftsInserts.set(sw.indexId, (list = []));
            list.push(seq, sw.text, sw.filters);
          }
        }
      }
      if (docRows.length > 0) this.insertRows("INSERT INTO documents(seq, id, tbl, json)", 4, docRows);
      for (const [indexId, list] of idxInserts) {
        // Mostly already ordered (creation time, counters); sorted keys keep B-tree writes local.
        list.sort((a, b) => Buffer.compare(a.key, b.key));
        const params: unknown[] = new Array(list.length * 3);
        for (let j = 0; j < list.length; j++) {
          params[j * 3] = indexId;
          params[j * 3 + 1] = list[j].key;
          params[j * 3 + 2] = list[j].seq;
        }
        this.insertRows("INSERT INTO idx(i, k, seq)", 3, params);
      }
      for (const [indexId, seqs] of ftsDeletes) {
        const s = this.fts(indexId);
        for (const seq of seqs) s.del.run(seq);
      }
      for (const [indexId, params] of ftsInserts) this.insertRows(`INSERT INTO fts_${indexId}(rowid, t, f)`, 3, params);
      for (const [k, v] of meta) this.stmts.setMeta.run(k, v);
      for (const [tbl, d] of tableCountDeltas) if (d !== 0) this.stmts.countDelta.run(d, tbl);
    });
    run();
  }

  /** Iterates all documents of a table in insertion order, in batches (bounded memory). */
  *iterateTable(tableNumber: number, batch = 1000): Generator<{ seq: number; id: string; json: string }> {
    const stmt = this.db.prepare("SELECT seq, id, json FROM documents WHERE seq > ? AND tbl = ? ORDER BY seq LIMIT ?");
    let after = -1;
    for (;;) {
      const rows = stmt.all(after, tableNumber, batch) as Array<{ seq: number; id: string; json: string }>;
      if (rows.length === 0) return;
      for (const r of rows) yield r;
      after = rows[rows.length - 1].seq;
    }
  }

  insertIndexEntries(entries: Array<{ indexId: number; key: Buffer; seq: number }>) {
    const run = this.db.transaction(() => {
      for (const e of entries) this.stmts.insertIdx.run(e.indexId, e.key, e.seq);
    });
    run();
  }
  insertFtsEntries(indexId: number, entries: Array<{ seq: number; text: string; filters: string }>) {
    const s = this.fts(indexId);
    const run = this.db.transaction(() => {
      for (const e of entries) s.insert.run(e.seq, e.text, e.filters);
    });
    run();
  }
}
