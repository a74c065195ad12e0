/**
 * The transactional view used by one function run: reads from SQLite merged with the run's
 * buffered writes, index range streams, query operators (filter/limit) and read-set tracking.
 */
import { compareValues, convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import { decodeId, encodeId, newInternalId } from "./ids.js";
import { encodeTuple, encodeValue, getFieldPath, indexKey, prefixEnd, searchEntry } from "./indexkey.js";
import { ReadSetImpl } from "./readset.js";
import type { Store } from "./storage.js";
import type { DbIndexDef, IndexDef, SearchIndexDef } from "./storage-types.js";
import { checkValue, type ValidatorJSON } from "./validators.js";

export type Doc = Record<string, Value>;

export const SYSTEM_TABLES: Record<string, number> = { _scheduled_functions: 1, _storage: 2 };
export const FIRST_USER_TABLE_NUMBER = 10001;

export type SchemaTable = {
  tableName: string;
  indexes: Array<{ indexDescriptor: string; fields: string[] }>;
  searchIndexes: Array<{ indexDescriptor: string; searchField: string; filterFields: string[] }>;
  vectorIndexes?: Array<{ indexDescriptor: string; vectorField: string; dimensions: number; filterFields: string[] }>;
  documentType: ValidatorJSON;
};
export type SchemaInfo = { tables: SchemaTable[]; schemaValidation: boolean };

/** A user-visible error that should reach the caller without an "Uncaught" prefix. */
export class SystemError extends Error {}

export class Catalog {
  tables = new Map<string, number>();
  names = new Map<number, string>();
  counts = new Map<number, number>();
  indexes = new Map<string, Map<string, IndexDef>>();
  byId = new Map<number, IndexDef>();
  schema: SchemaInfo | null = null;
  schemaByTable = new Map<string, SchemaTable>();
  private indexListCache = new Map<string, IndexDef[]>();

  constructor(readonly store: Store) {}

  load() {
    for (const t of this.store.loadTables()) {
      this.tables.set(t.name, t.number);
      this.names.set(t.number, t.name);
      this.counts.set(t.number, t.count);
    }
    for (const def of this.store.loadIndexes()) this.registerIndex(def);
  }

  private registerIndex(def: IndexDef) {
    this.indexListCache.delete(def.table);
    let m = this.indexes.get(def.table);
    if (!m) this.indexes.set(def.table, (m = new Map()));
    m.set(def.name, def);
    this.byId.set(def.id, def);
  }
  private unregisterIndex(def: IndexDef) {
    this.indexListCache.delete(def.table);
    this.indexes.get(def.table)?.delete(def.name);
    this.byId.delete(def.id);
  }

  tableNumber(name: string): number | undefined {
    return this.tables.get(name);
  }

  /** Creates the table (with its default indexes) when it does not exist yet. */
  ensureTable(name: string, number?: number): number {
    const existing = this.tables.get(name);
    if (existing !== undefined) return existing;
    if (number === undefined) {
      number = SYSTEM_TABLES[name];
      if (number === undefined) {
        number = FIRST_USER_TABLE_NUMBER;
        for (const n of this.names.keys()) if (n >= number) number = n + 1;
      }
    }
    if (this.names.has(number)) throw new Error(`Table number ${number} is already used by ${this.names.get(number)}`);
    this.store.createTable(name, number);
    this.tables.set(name, number);
    this.names.set(number, name);
    this.counts.set(number, 0);
    this.syncIndexes(name);
    return number;
  }

  /** Gives an empty table another number (restoring a backup whose ids use other numbers). */
  renumberTable(name: string, number: number) {
    const old = this.tables.get(name);
    if (old === number) return;
    if (old !== undefined && (this.counts.get(old) ?? 0) > 0) {
      throw new Error(`Table ${name} already holds documents under table number ${old}`);
    }
    if (this.names.has(number)) throw new Error(`Table number ${number} is already used by ${this.names.get(number)}`);
    if (old === undefined) {
      this.ensureTable(name, number);
      return;
    }
    this.store.renumberTable(name, number);
    this.names.delete(old);
    this.counts.delete(old);
    this.tables.set(name, number);
    this.names.set(number, name);
    this.counts.set(number, 0);
  }

  tableName(id: string): string | null {
    const d = decodeId(id);
    if (!d) return null;
    return this.names.get(d.tableNumber) ?? null;
  }

  desiredIndexes(table: string): Array<Omit<DbIndexDef, "id"> | Omit<SearchIndexDef, "id">> {
    const out: Array<Omit<DbIndexDef, "id"> | Omit<SearchIndexDef, "id">> = [
      { table, name: "by_id", kind: "db", fields: ["_id"] },
      { table, name: "by_creation_time", kind: "db", fields: ["_creationTime", "_id"] },
    ];
    if (table === "_scheduled_functions") {
      // Lets the scheduler find the next due job without scanning finished ones.
      out.push({ table, name: "by_state", kind: "db", fields: ["state.kind", "scheduledTime", "_creationTime", "_id"] });
    }
    const st = this.schemaByTable.get(table);
    if (st) {
      for (const ix of st.indexes) {
        out.push({ table, name: ix.indexDescriptor, kind: "db", fields: [...ix.fields, "_creationTime", "_id"] });
      }
      for (const ix of st.searchIndexes) {
        out.push({ table, name: ix.indexDescriptor, kind: "search", searchField: ix.searchField, filterFields: ix.filterFields });
      }
    }
    return out;
  }

  /** Creates, rebuilds or drops indexes of `table` so they match the schema; backfills new ones. */
  syncIndexes(table: string): string[] {
    const changes: string[] = [];
    const desired = this.desiredIndexes(table);
    const current = this.indexes.get(table) ?? new Map<string, IndexDef>();
    const desiredNames = new Set(desired.map((d) => d.name));
    for (const def of [...current.values()]) {
      if (!desiredNames.has(def.name)) {
        this.store.dropIndex(def);
        this.unregisterIndex(def);
        changes.push(`dropped index ${table}.${def.name}`);
      }
    }
    for (const want of desired) {
      const have = current.get(want.name);
      if (have && sameIndex(have, want)) continue;
      if (have) {
        this.store.dropIndex(have);
        this.unregisterIndex(have);
      }
      const def = this.store.createIndex(want);
      this.registerIndex(def);
      this.backfill(def);
      changes.push(`${have ? "rebuilt" : "added"} index ${table}.${def.name}`);
    }
    return changes;
  }

  private backfill(def: IndexDef) {
    const tn = this.tables.get(def.table);
    if (tn === undefined || isDocumentsIndex(def)) return;
    let batch: Array<{ seq: number; doc: Doc }> = [];
    const flush = () => {
      if (def.kind === "db") {
        this.store.insertIndexEntries(batch.map((b) => ({ indexId: def.id, key: indexKey(b.doc, def.fields), seq: b.seq })));
      } else {
        const entries = [];
        for (const b of batch) {
          const s = searchEntry(def, b.doc);
          if (s) entries.push({ seq: b.seq, ...s });
        }
        this.store.insertFtsEntries(def.id, entries);
      }
      batch = [];
    };
    for (const row of this.store.iterateTable(tn)) {
      batch.push({ seq: row.seq, doc: parseDoc(row.json) });
      if (batch.length >= 1000) flush();
    }
    if (batch.length) flush();
  }

  dbIndex(table: string, name: string): DbIndexDef | undefined {
    const d = this.indexes.get(table)?.get(name);
    return d?.kind === "db" ? d : undefined;
  }
  searchIndex(table: string, name: string): SearchIndexDef | undefined {
    const d = this.indexes.get(table)?.get(name);
    return d?.kind === "search" ? d : undefined;
  }
  /** The table's indexes (a cached array: do not modify). */
  tableIndexes(table: string): readonly IndexDef[] {
    let list = this.indexListCache.get(table);
    if (!list) {
      list = [...(this.indexes.get(table)?.values() ?? [])];
      this.indexListCache.set(table, list);
    }
    return list;
  }
}

/**
 * `by_id` has no entries of its own: the documents table's unique id column is that index (its
 * key, one string, orders like the id itself).
 */
export function isDocumentsIndex(def: IndexDef): boolean {
  return def.kind === "db" && def.name === "by_id";
}

function sameIndex(a: IndexDef, b: Omit<DbIndexDef, "id"> | Omit<SearchIndexDef, "id">): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "db" && b.kind === "db") return JSON.stringify(a.fields) === JSON.stringify(b.fields);
  if (a.kind === "search" && b.kind === "search") {
    return a.searchField === b.searchField && JSON.stringify(a.filterFields) === JSON.stringify(b.filterFields);
  }
  return false;
}

const ARRAY_INDEX_RE = /^(?:0|[1-9][0-9]*)$/;
function isArrayIndexKey(k: string): boolean {
  return ARRAY_INDEX_RE.test(k) && Number(k) < 4294967295;
}

/**
 * `JSON.stringify(convexToJson({...value, _id, _creationTime}))` given `encoded` =
 * `convexToJson(value)` (user fields only): convexToJson sorts object keys, and JavaScript lists
 * array-index-like keys first, so the system fields go before the first other key above "_id".
 * Returns undefined when the creation time would not print as a plain JSON number.
 */
export function storedJson(encoded: Record<string, JSONValue>, id: string, creationTime: number, encodedText?: string): string | undefined {
  if (!Number.isFinite(creationTime) || Object.is(creationTime, -0)) return undefined;
  // ids are base32 ([0-9a-z]): no escaping needed.
  const sys = `"_creationTime":${creationTime},"_id":"${id}"`;
  let full = encodedText ?? JSON.stringify(encoded);
  let before = 0;
  let found = false;
  for (const k in encoded) {
    if (k > "_id" && !isArrayIndexKey(k)) {
      found = true;
      break;
    }
    before++;
  }
  if (!found) return full === "{}" ? `{${sys}}` : `${full.slice(0, -1)},${sys}}`;
  if (before === 0) return `{${sys},${full.slice(1)}`;
  // Rare: keys sorting before "_" (upper case, digits): measure the entries ahead of the system fields.
  if (encodedText !== undefined) full = JSON.stringify(encoded);
  let pos = 1;
  let i = 0;
  for (const k in encoded) {
    if (i++ === before) break;
    pos += JSON.stringify(k).length + 1 + JSON.stringify(encoded[k]).length + 1;
  }
  return `${full.slice(0, pos)}${sys},${full.slice(pos)}`;
}

export function parseDoc(json: string): Doc {
  return jsonToConvex(JSON.parse(json)) as Doc;
}

/** A JSON value from a query (bound, literal): `{$undefined: null}` means a missing field. */
export function decodeQueryValue(json: JSONValue): Value | undefined {
  if (json !== null && typeof json === "object" && !Array.isArray(json) && "$undefined" in json) return undefined;
  return jsonToConvex(json);
}

// ---------- search index contents ----------

const TOKEN_RE = /[\p{L}\p{N}]+/gu;
export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(TOKEN_RE) ?? []).map((t) => t.slice(0, 64));
}

// ---------- filters ----------

type Expr = any;

function arith(op: string, a: Value | undefined, b: Value | undefined): Value {
  if (typeof a === "bigint" && typeof b === "bigint") {
    switch (op) {
      case "$add":
        return BigInt.asIntN(64, a + b);
      case "$sub":
        return BigInt.asIntN(64, a - b);
      case "$mul":
        return BigInt.asIntN(64, a * b);
      case "$div":
        if (b === 0n) throw new Error("Division by zero");
        return BigInt.asIntN(64, a / b);
      case "$mod":
        if (b === 0n) throw new Error("Division by zero");
        return a % b;
    }
  }
  if (typeof a === "number" && typeof b === "number") {
    switch (op) {
      case "$add":
        return a + b;
      case "$sub":
        return a - b;
      case "$mul":
        return a * b;
      case "$div":
        return a / b;
      case "$mod":
        return a % b;
    }
  }
  throw new Error(`Cannot apply ${op.slice(1)} to ${describeType(a)} and ${describeType(b)}`);
}

function describeType(v: unknown): string {
  if (v === undefined) return "undefined";
  if (v === null) return "null";
  if (typeof v === "bigint") return "int64";
  if (typeof v === "number") return "float64";
  if (v instanceof ArrayBuffer) return "bytes";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

export function evalExpr(expr: Expr, doc: Doc): Value | undefined {
  if (expr === null || typeof expr !== "object") throw new Error(`Invalid filter expression: ${JSON.stringify(expr)}`);
  if ("$field" in expr) return getFieldPath(doc, expr.$field);
  if ("$literal" in expr) return decodeQueryValue(expr.$literal);
  if ("$eq" in expr) return compareValues(evalExpr(expr.$eq[0], doc), evalExpr(expr.$eq[1], doc)) === 0;
  if ("$neq" in expr) return compareValues(evalExpr(expr.$neq[0], doc), evalExpr(expr.$neq[1], doc)) !== 0;
  if ("$lt" in expr) return compareValues(evalExpr(expr.$lt[0], doc), evalExpr(expr.$lt[1], doc)) < 0;
  if ("$lte" in expr) return compareValues(evalExpr(expr.$lte[0], doc), evalExpr(expr.$lte[1], doc)) <= 0;
  if ("$gt" in expr) return compareValues(evalExpr(expr.$gt[0], doc), evalExpr(expr.$gt[1], doc)) > 0;
  if ("$gte" in expr) return compareValues(evalExpr(expr.$gte[0], doc), evalExpr(expr.$gte[1], doc)) >= 0;
  if ("$and" in expr) return (expr.$and as Expr[]).every((e) => evalExpr(e, doc) === true);
  if ("$or" in expr) return (expr.$or as Expr[]).some((e) => evalExpr(e, doc) === true);
  if ("$not" in expr) return evalExpr(expr.$not, doc) !== true;
  if ("$neg" in expr) {
    const v = evalExpr(expr.$neg, doc);
    if (typeof v === "bigint") return BigInt.asIntN(64, -v);
    if (typeof v === "number") return -v;
    throw new Error(`Cannot negate ${describeType(v)}`);
  }
  for (const op of ["$add", "$sub", "$mul", "$div", "$mod"]) {
    if (op in expr) return arith(op, evalExpr(expr[op][0], doc), evalExpr(expr[op][1], doc));
  }
  throw new Error(`Invalid filter expression: ${JSON.stringify(expr)}`);
}

// ---------- index ranges ----------

export type RangeExpr = { type: "Eq" | "Gt" | "Gte" | "Lt" | "Lte"; fieldPath: string; value: JSONValue };

/** Checks the range shape (eq* then optional lower/upper bound on the next field) and encodes it as [lo, hi). */
export function encodeRange(index: DbIndexDef, range: RangeExpr[]): { lo: Buffer; hi: Buffer } {
  const fields = index.fields;
  const prefixVals: Array<Value | undefined> = [];
  let lower: { v: Value | undefined; inclusive: boolean } | null = null;
  let upper: { v: Value | undefined; inclusive: boolean } | null = null;
  let fieldIndex = 0;
  let state: "eq" | "gt" | "lt" | "done" = "eq";
  let boundField: string | null = null;
  for (const [i, r] of range.entries()) {
    const kind = r.type === "Gt" || r.type === "Gte" ? "gt" : r.type === "Lt" || r.type === "Lte" ? "lt" : "eq";
    if (state === "done") {
      throw new Error(
        `Incorrect operator used in \`withIndex\`, cannot chain more operators after both \`.gt\` and \`.lt\` were already used, got \`.${r.type.toLowerCase()}(${r.fieldPath})\`.`,
      );
    }
    if (state === "eq") {
      if (r.fieldPath !== fields[fieldIndex]) {
        throw new Error(
          `Incorrect field used in \`withIndex\` on index "${index.name}": expected "${fields[fieldIndex] ?? "(no more fields)"}", got "${r.fieldPath}".`,
        );
      }
      fieldIndex++;
      const v = decodeQueryValue(r.value);
      if (kind === "eq") prefixVals.push(v);
      else {
        boundField = r.fieldPath;
        if (kind === "gt") lower = { v, inclusive: r.type === "Gte" };
        else upper = { v, inclusive: r.type === "Lte" };
        state = kind;
      }
      continue;
    }
    if ((state === "gt" && kind === "lt") || (state === "lt" && kind === "gt")) {
      if (r.fieldPath !== boundField) {
        throw new Error(
          `Incorrect field used in \`withIndex\`, \`.gt\` and \`.lt\` must operate on the same field, expected "${boundField}", got "${r.fieldPath}".`,
        );
      }
      const v = decodeQueryValue(r.value);
      if (kind === "gt") lower = { v, inclusive: r.type === "Gte" };
      else upper = { v, inclusive: r.type === "Lte" };
      state = "done";
      continue;
    }
    throw new Error(
      `Incorrect operator used in \`withIndex\`, cannot chain \`.${r.type.toLowerCase()}()\` after \`.${range[i - 1].type.toLowerCase()}()\`.`,
    );
  }
  const prefix = encodeTuple(prefixVals);
  let lo = prefix;
  let hi = prefixEnd(prefix);
  if (lower) {
    const b = Buffer.concat([prefix, encodeValue(lower.v)]);
    lo = lower.inclusive ? b : prefixEnd(b);
  }
  if (upper) {
    const b = Buffer.concat([prefix, encodeValue(upper.v)]);
    hi = upper.inclusive ? prefixEnd(b) : b;
  }
  return { lo, hi };
}

/** The smallest key strictly after `key` (keys are unique, so this bounds "≤ key" exactly). */
export function keySuccessor(key: Buffer): Buffer {
  return Buffer.concat([key, Buffer.from([0])]);
}

// ---------- transaction ----------

export type Pending = {
  id: string;
  table: string;
  tableNumber: number;
  doc: Doc | null;
  /** true when the document did not exist before this transaction */
  isNew: boolean;
  hasPlaceholder: boolean;
  keys?: Map<number, Buffer>;
  /** `doc` as stored (convexToJson-encoded JSON), when already known; never set with placeholders */
  json?: string;
};

export type Row = { key: Buffer; id: string; json: string | null; doc: Doc | null };

/**
 * The writes of one committed transaction that the writer thread may not have stored yet
 * (latest version of each written document; `doc: null` for a delete). Every transaction reads
 * through these, oldest first, between SQLite and its own writes.
 */
export type BaseLayer = {
  ticket: number;
  docs: Map<string, Pending>;
  /** per index id: the layer's documents of that index's table as rows, ascending by key (built on first use) */
  sorted: Map<number, SortedRows>;
};

export type EngineHooks = {
  catalog: Catalog;
  store: Store;
  nextCreationTime(): number;
  /** committed batches not yet known to be in SQLite, oldest first (a fresh array) */
  baseLayers(): BaseLayer[];
};

/** A pending document's key in `index` (cached on the pending entry). */
export function pendingKey(p: Pending, index: DbIndexDef): Buffer {
  if (!p.keys) p.keys = new Map();
  let k = p.keys.get(index.id);
  if (!k) {
    k = indexKey(p.doc!, index.fields);
    p.keys.set(index.id, k);
  }
  return k;
}

type SortedRows = { rows: Row[]; keys: string[] };

/**
 * The layer's rows of an index, ascending by key, with each key as a latin1 string: the same order
 * as the bytes, compared without a native call per comparison (a layer holds thousands of rows).
 */
function layerRows(layer: BaseLayer, index: DbIndexDef): SortedRows {
  let sorted = layer.sorted.get(index.id);
  if (!sorted) {
    const keyed: Array<{ s: string; row: Row }> = [];
    for (const p of layer.docs.values()) {
      if (p.table !== index.table || !p.doc) continue;
      const key = pendingKey(p, index);
      keyed.push({ s: key.toString("latin1"), row: { key, id: p.id, json: p.json ?? null, doc: p.doc } });
    }
    keyed.sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0));
    sorted = { rows: keyed.map((k) => k.row), keys: keyed.map((k) => k.s) };
    layer.sorted.set(index.id, sorted);
  }
  return sorted;
}

/** First position in `keys` (ascending) whose key is ≥ `key`. */
function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class Tx {
  readonly layers: Array<Map<string, Pending>> = [new Map()];
  readonly readSet = new ReadSetImpl();
  private openStreams = new Set<IndexStream>();
  private overlayCache = new Map<string, { version: number; rows: Map<string, Pending> }>();
  private version = 0;
  readonly afterCommit: Array<() => void> = [];
  readonly beforeCommit: Array<(tx: Tx) => void> = [];
  /** committed writes not yet in SQLite when this transaction began (see BaseLayer) */
  readonly base: BaseLayer[];

  constructor(
    readonly hooks: EngineHooks,
    readonly writable: boolean,
  ) {
    this.base = hooks.baseLayers();
  }

  get catalog() {
    return this.hooks.catalog;
  }

  pushLayer() {
    this.layers.push(new Map());
    this.version++;
  }
  popLayer(commit: boolean) {
    const top = this.layers.pop()!;
    if (commit) {
      const below = this.layers[this.layers.length - 1];
      for (const [id, p] of top) {
        const prev = below.get(id);
        below.set(id, prev ? { ...p, isNew: prev.isNew } : p);
      }
    }
    this.version++;
  }

  hasWrites(): boolean {
    return this.layers.some((l) => l.size > 0);
  }

  /** The latest unstored version of a document: this transaction's own writes, then committed ones. */
  pending(id: string): Pending | undefined {
    return this.ownPending(id) ?? this.basePending(id);
  }

  private ownPending(id: string): Pending | undefined {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const p = this.layers[i].get(id);
      if (p) return p;
    }
    return undefined;
  }

  /** The latest version among committed writes not yet in SQLite. */
  basePending(id: string): Pending | undefined {
    for (let i = this.base.length - 1; i >= 0; i--) {
      const p = this.base[i].docs.get(id);
      if (p) return p;
    }
    return undefined;
  }

  /** All pending writes, innermost layer winning. */
  flatten(): Map<string, Pending> {
    if (this.layers.length === 1) return this.layers[0];
    const out = new Map<string, Pending>();
    for (const layer of this.layers) {
      for (const [id, p] of layer) {
        const prev = out.get(id);
        out.set(id, prev ? { ...p, isNew: prev.isNew } : p);
      }
    }
    return out;
  }

  private overlayFor(table: string): Map<string, Pending> {
    const cached = this.overlayCache.get(table);
    if (cached && cached.version === this.version) return cached.rows;
    const rows = new Map<string, Pending>();
    for (const layer of this.layers) for (const [id, p] of layer) if (p.table === table) rows.set(id, p);
    this.overlayCache.set(table, { version: this.version, rows });
    return rows;
  }

  private byIdIndex(table: string): DbIndexDef | undefined {
    return this.catalog.dbIndex(table, "by_id");
  }

  /** Reads a document by id through the transaction (records the read). */
  get(id: string): { doc: Doc; json: string | null; table: string; seq: number | null } | null {
    const decoded = decodeId(id);
    if (!decoded) return null;
    const table = this.catalog.names.get(decoded.tableNumber);
    if (table === undefined) return null;
    const byId = this.writable ? undefined : this.byIdIndex(table);
    if (byId) {
      const k = encodeTuple([id]);
      this.readSet.addRange(byId.id, k, keySuccessor(k));
    }
    const p = this.pending(id);
    if (p) return p.doc ? { doc: p.doc, json: p.json ?? null, table, seq: null } : null;
    const row = this.hooks.store.getDoc(id);
    if (!row) return null;
    return { doc: parseDoc(row.json), json: row.json, table, seq: row.seq };
  }

  private requireWritable() {
    if (!this.writable) throw new Error("Write operations are not allowed in queries.");
  }

  private put(p: Pending) {
    this.layers[this.layers.length - 1].set(p.id, p);
    this.version++;
  }

  /**
   * `encoded`, when given, is `convexToJson(value)` (what the insert syscall received); the
   * stored JSON is then built from it now instead of encoding the document again at commit.
   */
  insert(table: string, value: Doc, hasPlaceholder: boolean): string;
  /** the `db.vars.commitTs` placeholder check is done on the built JSON */
  insert(table: string, value: Doc, hasPlaceholder: undefined, encoded: Record<string, JSONValue>, encodedText?: string): string;
  insert(table: string, value: Doc, hasPlaceholder: boolean | undefined, encoded?: Record<string, JSONValue>, encodedText?: string): string {
    this.requireWritable();
    const tableNumber = this.catalog.ensureTable(table);
    const id = encodeId(tableNumber, newInternalId());
    const creationTime = this.hooks.nextCreationTime();
    // Object.assign, not `{ ...value, _id }`: V8 adds fields after a large spread very slowly.
    const doc: Doc = Object.assign({}, value);
    doc._id = id;
    doc._creationTime = creationTime;
    let json = encoded !== undefined ? storedJson(encoded, id, creationTime, encodedText) : undefined;
    if (hasPlaceholder === undefined) hasPlaceholder = json === undefined ? JSON.stringify(encoded).includes('"$commitTs"') : json.includes('"$commitTs"');
    if (hasPlaceholder) json = undefined;
    this.put({ id, table, tableNumber, doc, isNew: true, hasPlaceholder, json });
    return id;
  }

  /** Replaces the full document (system fields preserved). */
  write(id: string, table: string, doc: Doc | null, hasPlaceholder: boolean) {
    this.requireWritable();
    const tableNumber = this.catalog.tableNumber(table)!;
    const prev = this.ownPending(id);
    this.put({ id, table, tableNumber, doc, isNew: prev ? prev.isNew : false, hasPlaceholder: hasPlaceholder || !!prev?.hasPlaceholder });
  }

  openIndexStream(index: DbIndexDef, lo: Buffer, hi: Buffer, order: "asc" | "desc"): IndexStream {
    const overlay = this.overlayFor(index.table);
    const s = new IndexStream(this, index, lo, hi, order, overlay, this.base);
    // Read sets are only reported for read-only transactions (queries): a mutation keeping every
    // stream it opened (thousands per import batch) only held garbage alive.
    if (!this.writable) this.openStreams.add(s);
    return s;
  }

  /** Folds the coverage of every stream opened so far into the read set (read-only transactions only). */
  finishReads(): ReadSetImpl {
    for (const s of this.openStreams) s.recordCoverage(this.readSet);
    this.openStreams.clear();
    return this.readSet;
  }
}

/** Merges an index range from SQLite with committed unstored writes and the transaction's own writes. */
export class IndexStream {
  private buffer: Row[] = [];
  private bufPos = 0;
  private sqlDone = false;
  private sqlCursor: Buffer | null = null;
  private batch = 8;
  private overlayRows: Row[];
  private overlayPos = 0;
  private shadow: Map<string, Pending>;
  lastKey: Buffer | null = null;
  exhausted = false;
  rowsRead = 0;

  constructor(
    private tx: Tx,
    readonly index: DbIndexDef,
    readonly lo: Buffer,
    readonly hi: Buffer,
    readonly order: "asc" | "desc",
    overlay: Map<string, Pending>,
    private base: BaseLayer[],
  ) {
    this.shadow = overlay;
    const rows: Row[] = [];
    for (const p of overlay.values()) {
      if (!p.doc) continue;
      const key = pendingKey(p, index);
      if (Buffer.compare(key, lo) >= 0 && Buffer.compare(key, hi) < 0) rows.push({ key, id: p.id, json: null, doc: p.doc });
    }
    // Committed unstored versions, unless a newer layer or the transaction itself rewrote them.
    const loS = base.length > 0 ? lo.toString("latin1") : "";
    const hiS = base.length > 0 ? hi.toString("latin1") : "";
    for (let li = base.length - 1; li >= 0; li--) {
      const { rows: layerSorted, keys } = layerRows(base[li], index);
      for (let i = lowerBound(keys, loS); i < keys.length; i++) {
        if (keys[i] >= hiS) break;
        const r = layerSorted[i];
        if (overlay.has(r.id)) continue;
        let newer = false;
        for (let lj = li + 1; lj < base.length && !newer; lj++) newer = base[lj].docs.has(r.id);
        if (!newer) rows.push(r);
      }
    }
    rows.sort((a, b) => (order === "asc" ? Buffer.compare(a.key, b.key) : Buffer.compare(b.key, a.key)));
    this.overlayRows = rows;
  }

  /** A stored row that an unstored or own version replaces. */
  private shadowed(id: string): boolean {
    if (this.shadow.has(id)) return true;
    for (const layer of this.base) if (layer.docs.has(id)) return true;
    return false;
  }

  private fill() {
    while (this.bufPos >= this.buffer.length && !this.sqlDone) {
      const store = this.tx.hooks.store;
      let rows: Array<{ key: Buffer; id: string; json: string }>;
      if (isDocumentsIndex(this.index)) {
        const tn = this.tx.catalog.tableNumber(this.index.table);
        if (tn === undefined) rows = [];
        else if (this.order === "asc") {
          rows = this.sqlCursor
            ? scanById(store, tn, this.sqlCursor, this.hi, "asc", this.batch, false, false)
            : scanById(store, tn, this.lo, this.hi, "asc", this.batch, true, false);
        } else {
          rows = this.sqlCursor
            ? scanById(store, tn, this.lo, this.sqlCursor, "desc", this.batch, true, false)
            : scanById(store, tn, this.lo, this.hi, "desc", this.batch, true, false);
        }
      } else if (this.order === "asc") {
        rows = this.sqlCursor
          ? store.scan(this.index.id, this.sqlCursor, this.hi, "asc", this.batch, false, false)
          : store.scan(this.index.id, this.lo, this.hi, "asc", this.batch, true, false);
      } else {
        rows = this.sqlCursor
          ? store.scan(this.index.id, this.lo, this.sqlCursor, "desc", this.batch, true, false)
          : store.scan(this.index.id, this.lo, this.hi, "desc", this.batch, true, false);
      }
      if (rows.length < this.batch) this.sqlDone = true;
      this.batch = Math.min(this.batch * 4, 2048);
      if (rows.length > 0) this.sqlCursor = rows[rows.length - 1].key;
      this.buffer = [];
      this.bufPos = 0;
      for (const r of rows) {
        if (this.shadowed(r.id)) continue;
        this.buffer.push({ key: r.key, id: r.id, json: r.json, doc: null });
      }
    }
  }

  next(): Row | null {
    if (this.exhausted) return null;
    this.fill();
    const a = this.bufPos < this.buffer.length ? this.buffer[this.bufPos] : null;
    const b = this.overlayPos < this.overlayRows.length ? this.overlayRows[this.overlayPos] : null;
    let row: Row | null;
    if (a && b) {
      const c = Buffer.compare(a.key, b.key);
      const takeA = this.order === "asc" ? c < 0 : c > 0;
      row = takeA ? this.buffer[this.bufPos++] : this.overlayRows[this.overlayPos++];
    } else if (a) row = this.buffer[this.bufPos++];
    else if (b) row = this.overlayRows[this.overlayPos++];
    else row = null;
    if (!row) {
      this.exhausted = true;
      return null;
    }
    this.lastKey = row.key;
    this.rowsRead++;
    return row;
  }

  recordCoverage(rs: ReadSetImpl) {
    if (this.exhausted) rs.addRange(this.index.id, this.lo, this.hi);
    else if (this.lastKey) {
      if (this.order === "asc") rs.addRange(this.index.id, this.lo, keySuccessor(this.lastKey));
      else rs.addRange(this.index.id, this.lastKey, this.hi);
    }
  }
}

const STRING_TAG = encodeValue("")[0];
const EMPTY_RANGE = Symbol("empty");

/** Bytes of a by_id key bound after the string tag, up to the first NUL or non-ASCII byte. */
function idBoundText(bound: Buffer): string {
  let end = 1;
  while (end < bound.length && bound[end] !== 0 && bound[end] < 0x80) end++;
  return bound.toString("latin1", 1, end);
}
/** A string `s` with: key(id) ≥ bound ⇒ id ≥ s (null: no bound). */
function idLowerBound(bound: Buffer): string | null | typeof EMPTY_RANGE {
  if (bound.length === 0 || bound[0] < STRING_TAG) return null;
  if (bound[0] > STRING_TAG) return EMPTY_RANGE;
  return idBoundText(bound);
}
/** A string `s` with: key(id) < bound ⇒ id ≤ s (null: no bound); ids are ASCII. */
function idUpperBound(bound: Buffer): string | null | typeof EMPTY_RANGE {
  if (bound.length === 0 || bound[0] < STRING_TAG) return EMPTY_RANGE;
  if (bound[0] > STRING_TAG) return null;
  return `${idBoundText(bound)}\uffff`;
}

/**
 * The by_id index range [lo, hi) (bounds' inclusiveness as given), read from the documents
 * table: SQL narrows by id conservatively, exact key bounds are applied here.
 */
function scanById(
  store: Store,
  tableNumber: number,
  lo: Buffer,
  hi: Buffer,
  order: "asc" | "desc",
  limit: number,
  loInclusive: boolean,
  hiInclusive: boolean,
): Array<{ key: Buffer; id: string; json: string }> {
  const lb = idLowerBound(lo);
  const ub = idUpperBound(hi);
  const out: Array<{ key: Buffer; id: string; json: string }> = [];
  if (lb === EMPTY_RANGE || ub === EMPTY_RANGE) return out;
  let sqlLo = lb;
  let sqlLoInclusive = true;
  let sqlHi = ub;
  let sqlHiInclusive = true;
  while (out.length < limit) {
    const want = limit - out.length;
    const rows = store.scanDocsById(tableNumber, sqlLo, sqlLoInclusive, sqlHi, sqlHiInclusive, order, want);
    for (const r of rows) {
      const key = encodeTuple([r.id]);
      const cLo = Buffer.compare(key, lo);
      const cHi = Buffer.compare(key, hi);
      const aboveLo = loInclusive ? cLo >= 0 : cLo > 0;
      const belowHi = hiInclusive ? cHi <= 0 : cHi < 0;
      if (aboveLo && belowHi) out.push({ key, id: r.id, json: r.json });
      else if (order === "asc" ? !belowHi : !aboveLo) return out;
    }
    if (rows.length < want) break;
    const last = rows[rows.length - 1].id;
    if (order === "asc") {
      sqlLo = last;
      sqlLoInclusive = false;
    } else {
      sqlHi = last;
      sqlHiInclusive = false;
    }
  }
  return out;
}

export function rowDoc(row: Row): Doc {
  if (!row.doc) row.doc = parseDoc(row.json!);
  return row.doc;
}
export function rowJson(row: Row): string {
  if (row.json === null) row.json = JSON.stringify(convexToJson(row.doc));
  return row.json;
}

export function validateDocument(catalog: Catalog, table: string, doc: Doc) {
  const schema = catalog.schema;
  if (!schema || !schema.schemaValidation) return;
  const st = catalog.schemaByTable.get(table);
  // Like convex-test, tables missing from the schema are not checked.
  if (!st) return;
  const { _id, _creationTime, ...fields } = doc;
  void _id;
  void _creationTime;
  validateFields(catalog, table, fields);
}

/** Like validateDocument, for the user fields alone (no _id/_creationTime). */
export function validateFields(catalog: Catalog, table: string, fields: Doc) {
  const schema = catalog.schema;
  if (!schema || !schema.schemaValidation) return;
  const st = catalog.schemaByTable.get(table);
  if (!st) return;
  const err = checkValue(st.documentType, fields, (id) => catalog.tableName(id));
  if (err) {
    throw new SystemError(`Failed to insert or update a document in table "${table}" because it does not match the schema: ${err}`);
  }
}
