/**
 * The catalog: tables (names, numbers, document counts) and their indexes, kept in step with the
 * app's schema (indexes added, rebuilt with a backfill, or dropped), and schema validation of
 * documents. Generic: the tables are whatever the app's schema and writes name.
 */
import { decodeId } from "./ids.js";
import { indexKey, searchEntry } from "./indexkey.js";
import { parseDoc, type Doc } from "./json-shape.js";
import { SystemError } from "./outcome.js";
import type { Store } from "./storage.js";
import type { DbIndexDef, IndexDef, SearchIndexDef } from "./storage-types.js";
import { checkValue, type ValidatorJSON } from "./validators.js";

const SYSTEM_TABLES: Record<string, number> = { _scheduled_functions: 1, _storage: 2 };
export const FIRST_USER_TABLE_NUMBER = 10001;

export type SchemaTable = {
  tableName: string;
  indexes: Array<{ indexDescriptor: string; fields: string[] }>;
  searchIndexes: Array<{ indexDescriptor: string; searchField: string; filterFields: string[] }>;
  vectorIndexes?: Array<{ indexDescriptor: string; vectorField: string; dimensions: number; filterFields: string[] }>;
  /** `index(name, { fields, staged: true })`: built and kept up to date, not queryable */
  stagedDbIndexes?: Array<{ indexDescriptor: string; fields: string[] }>;
  stagedSearchIndexes?: Array<{ indexDescriptor: string; searchField: string; filterFields: string[] }>;
  stagedVectorIndexes?: Array<{
    indexDescriptor: string;
    vectorField: string;
    dimensions: number;
    filterFields: string[];
  }>;
  documentType: ValidatorJSON;
};
export type SchemaInfo = { tables: SchemaTable[]; schemaValidation: boolean };

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
      out.push({
        table,
        name: "by_state",
        kind: "db",
        fields: ["state.kind", "scheduledTime", "_creationTime", "_id"],
      });
    }
    const st = this.schemaByTable.get(table);
    if (st) {
      // staged indexes are built and maintained like the others; queries refuse them (isStaged)
      for (const ix of [...st.indexes, ...(st.stagedDbIndexes ?? [])]) {
        out.push({ table, name: ix.indexDescriptor, kind: "db", fields: [...ix.fields, "_creationTime", "_id"] });
      }
      for (const ix of [...st.searchIndexes, ...(st.stagedSearchIndexes ?? [])]) {
        out.push({
          table,
          name: ix.indexDescriptor,
          kind: "search",
          searchField: ix.searchField,
          filterFields: ix.filterFields,
        });
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
        this.store.insertIndexEntries(
          batch.map((b) => ({ indexId: def.id, key: indexKey(b.doc, def.fields), seq: b.seq })),
        );
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

  /** Whether the schema declares this index `staged: true` (kept up to date, not queryable). */
  isStaged(table: string, name: string): boolean {
    const st = this.schemaByTable.get(table);
    if (!st) return false;
    return [st.stagedDbIndexes, st.stagedSearchIndexes, st.stagedVectorIndexes].some(
      (list) => list?.some((ix) => ix.indexDescriptor === name) ?? false,
    );
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
    throw new SystemError(
      `Failed to insert or update a document in table "${table}" because it does not match the schema: ${err}`,
    );
  }
}
