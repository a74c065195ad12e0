/**
 * The storage writer thread: applies committed batches (see storage-apply.ts) in order on its own
 * SQLite connection, as the journal thread hands them over once they are durable
 * (storage-journal.ts). After each batch it publishes the batch's ticket in shared memory (for a
 * main thread that blocks until everything is written) and posts it (for async waiters), and
 * tells the journal thread its lsn (those rows can go).
 */
import { createRequire } from "node:module";
import { deserialize } from "node:v8";
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import type DatabaseCtor from "better-sqlite3";
import { BatchApplier, type PackedBatch } from "./storage-apply.js";
import { openConnection } from "./storage-connection.js";

type Init = {
  file: string;
  sqlite: string;
  shared: SharedArrayBuffer;
  errorText: SharedArrayBuffer;
  journalPort: MessagePort;
};
const init = workerData as Init;
const Database = createRequire(init.sqlite)(init.sqlite) as typeof DatabaseCtor;
const db = openConnection(new Database(init.file), "writer");
const applier = new BatchApplier(db);
/** [0] last applied ticket, [1] ticket of a failed batch (0: none) */
const shared = new Int32Array(init.shared);
/** the failed batch's error message (UTF-8, zero-padded), readable while the main thread waits */
const errorText = new Uint8Array(init.errorText);
const journal = init.journalPort;

parentPort!.on("message", (msg: { close: true }) => {
  if (!msg.close) return;
  journal.close();
  db.close();
  parentPort!.close();
});

journal.on("message", (bytes: ArrayBuffer) => {
  const msg = deserialize(new Uint8Array(bytes)) as PackedBatch;
  let error: string | null = null;
  // Later batches were built on top of a failed one: none of them may be written.
  if (Atomics.load(shared, 1) !== 0) error = "an earlier write failed";
  else {
    try {
      applier.apply(msg);
    } catch (e) {
      error = (e as Error).message;
      new TextEncoder().encodeInto(error.slice(0, 300), errorText);
      Atomics.store(shared, 1, msg.ticket);
    }
  }
  Atomics.store(shared, 0, msg.ticket);
  Atomics.notify(shared, 0);
  parentPort!.postMessage({ ticket: msg.ticket, error });
  if (error === null) journal.postMessage({ applied: msg.lsn });
});
