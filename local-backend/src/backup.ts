/**
 * Backup and restore of all tables (user and system) as JSON lines: a header with the table
 * numbers, every document (ids preserved), then the storage blobs. An import renumbers an empty
 * table to match the ids it restores.
 */
import { jsonToConvex } from "convex/values";
import fs from "node:fs";
import path from "node:path";
import type { Catalog } from "./catalog.js";
import { decodeId } from "./ids.js";
import { isDelete } from "./pending.js";
import type { Doc } from "./json-shape.js";
import type { Store } from "./storage.js";
import type { Tx } from "./transaction.js";

/** What backup and restore need of the engine. */
export type BackupHost = {
  readonly catalog: Catalog;
  readonly store: Pick<Store, "iterateTable" | "getDoc">;
  readonly filesDir: string;
  /** takes the write lock (table renumbering); resolves to its release */
  writeLock(): Promise<() => void>;
  systemWrite<T>(fn: (tx: Tx) => T): Promise<T>;
  /** keeps later creation times above a restored document's */
  noteCreationTime(ct: number): void;
  /** called once the import is complete (restored scheduled jobs are due) */
  imported(): void;
};

export async function* exportJsonl(host: BackupHost): AsyncIterable<string> {
  const tables = Object.fromEntries(host.catalog.tables);
  yield JSON.stringify({ type: "tables", tables });
  for (const [name, number] of host.catalog.tables) {
    let batch: string[] = [];
    for (const row of host.store.iterateTable(number)) {
      batch.push(`{"type":"doc","table":${JSON.stringify(name)},"doc":${row.json}}`);
      if (batch.length >= 500) {
        yield* batch;
        batch = [];
      }
    }
    yield* batch;
  }
  const files = fs.readdirSync(host.filesDir).filter((f) => !f.startsWith("."));
  for (const f of files) {
    const data = fs.readFileSync(path.join(host.filesDir, f));
    yield JSON.stringify({ type: "blob", storageId: f, data: data.toString("base64") });
  }
}

export async function importJsonl(host: BackupHost, lines: AsyncIterable<string>): Promise<number> {
  let count = 0;
  let batch: Array<{ table: string; doc: Doc }> = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const items = batch;
    batch = [];
    await host.systemWrite((tx) => {
      for (const { table, doc } of items) {
        const id = doc._id as string;
        const d = decodeId(id);
        if (!d) throw new Error(`Invalid document id in import: ${id}`);
        const tn = host.catalog.tableNumber(table);
        if (tn === undefined) host.catalog.ensureTable(table, d.tableNumber);
        else if (tn !== d.tableNumber) host.catalog.renumberTable(table, d.tableNumber);
        const known = tx.pending(id);
        const exists = known ? !isDelete(known) : host.store.getDoc(id) !== undefined;
        const ct = doc._creationTime as number;
        host.noteCreationTime(ct);
        tx.put({ id, table, tableNumber: d.tableNumber, doc, isNew: !exists, hasPlaceholder: false }, 0);
      }
    });
  };
  for await (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    const entry = JSON.parse(line);
    if (entry.type === "tables") {
      const release = await host.writeLock();
      try {
        for (const [name, number] of Object.entries(entry.tables as Record<string, number>)) {
          const have = host.catalog.tableNumber(name);
          if (have === undefined) host.catalog.ensureTable(name, number);
          else if (have !== number) host.catalog.renumberTable(name, number);
        }
      } finally {
        release();
      }
    } else if (entry.type === "doc") {
      batch.push({ table: entry.table, doc: jsonToConvex(entry.doc) as Doc });
      count++;
      if (batch.length >= 1000) await flush();
    } else if (entry.type === "blob") {
      fs.writeFileSync(
        path.join(host.filesDir, String(entry.storageId).replace(/[/\\]/g, "")),
        Buffer.from(entry.data, "base64"),
      );
    }
  }
  await flush();
  host.imported();
  return count;
}
