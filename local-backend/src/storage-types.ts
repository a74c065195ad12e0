/**
 * Shapes shared by the storage layer (storage.ts), the writer thread's batch code
 * (storage-apply.ts) and key encoding (indexkey.ts): index definitions, stored rows and one
 * document write. Types only, so none of those files needs another for its shapes.
 */

export type IndexKind = "db" | "search";

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

/**
 * One document written by a committed transaction: its stored JSON (null: deleted) and whether
 * it existed before. The writer derives the index and search entries from the old and new JSON.
 */
export type DocWrite = {
  id: string;
  tableNumber: number;
  json: string | null;
  isNew: boolean;
};
