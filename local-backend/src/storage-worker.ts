/**
 * The storage writer thread: applies committed batches (see storage-apply.ts) in order on its own
 * SQLite connection, as the journal thread hands them over once they are durable
 * (storage-journal.ts). After each transaction it publishes the last ticket it applied in shared
 * memory (for a main thread that blocks until everything is written) and posts it (for async
 * waiters), and tells the journal thread its lsn (those rows can go).
 *
 * Large batches are grouped: the writer applies what is queued in one SQLite transaction once it
 * holds GROUP_DOCUMENTS documents, once the oldest has waited GROUP_WAIT_MS, when a small batch
 * arrives, or at once when the main thread asks for everything (a read that is not served from
 * memory, closing). The batches are durable in the journal and served from memory meanwhile
 * (pending.ts), so the wait costs no one anything; what it saves is the database's write cost. A statewide file's random-key indexes
 * (names, voter IDs, phones) are far larger than a batch, so nearly every entry dirties a page of
 * its own, and SQLite writes each dirtied page to the write-ahead log once per transaction (and
 * the checkpoint thread copies it back once per checkpoint): four batches in one transaction
 * share many of those pages.
 */
import { createRequire } from "node:module";
import { deserialize } from "node:v8";
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import type DatabaseCtor from "better-sqlite3";
import { BatchApplier, type PackedBatch } from "./storage-apply.js";
import {
  GROUP_DOCUMENTS,
  GROUP_WAIT_MS,
  LARGE_COMMIT_DOCUMENTS,
  lowerThreadPriority,
  openConnection,
  SHARED_FLUSH_THROUGH,
} from "./storage-connection.js";

type Init = {
  file: string;
  sqlite: string;
  shared: SharedArrayBuffer;
  errorText: SharedArrayBuffer;
  journalPort: MessagePort;
  /** how long a group is held open (default GROUP_WAIT_MS; tests hold it longer) */
  groupWaitMs?: number;
};
const init = workerData as Init;
const Database = createRequire(init.sqlite)(init.sqlite) as typeof DatabaseCtor;
const db = openConnection(new Database(init.file), "writer");
// the engine's thread, which every request waits for, comes first (see lowerThreadPriority)
lowerThreadPriority(5);
const applier = new BatchApplier(db);
/** [0] last applied ticket, [1] ticket of a failed batch (0: none), [2] apply at once up to this ticket */
const shared = new Int32Array(init.shared);
/** the failed batch's error message (UTF-8, zero-padded), readable while the main thread waits */
const errorText = new Uint8Array(init.errorText);
const journal = init.journalPort;

/** batches received and not yet applied, oldest first */
let queue: PackedBatch[] = [];
let queuedDocs = 0;
let timer: NodeJS.Timeout | null = null;

parentPort!.on("message", (msg: { close?: true; flush?: true }) => {
  if (msg.flush) return flush();
  if (!msg.close) return;
  flush();
  journal.close();
  db.close();
  parentPort!.close();
});

journal.on("message", (bytes: ArrayBuffer) => {
  const batch = deserialize(new Uint8Array(bytes)) as PackedBatch;
  queue.push(batch);
  queuedDocs += batch.ids.length;
  if (
    queuedDocs >= GROUP_DOCUMENTS ||
    batch.ids.length < LARGE_COMMIT_DOCUMENTS ||
    batch.ticket <= Atomics.load(shared, SHARED_FLUSH_THROUGH)
  )
    flush();
  else timer ??= setTimeout(flush, init.groupWaitMs ?? GROUP_WAIT_MS);
});

/** Applies the queued batches: in one transaction, or one by one when that fails (to find the batch that does). */
function flush() {
  if (timer) clearTimeout(timer);
  timer = null;
  if (queue.length === 0) return;
  const batches = queue;
  queue = [];
  queuedDocs = 0;
  // Later batches were built on top of a failed one: none of them may be written.
  if (Atomics.load(shared, 1) !== 0) return settle(batches, "an earlier write failed");
  try {
    applier.apply(...batches);
    return settle(batches, null);
  } catch (e) {
    if (batches.length === 1) return fail(batches, (e as Error).message);
  }
  for (let i = 0; i < batches.length; i++) {
    try {
      applier.apply(batches[i]);
    } catch (e) {
      settle(batches.slice(0, i), null);
      return fail(batches.slice(i), (e as Error).message);
    }
  }
  settle(batches, null);
}

/** `batches[0]` failed with `error`: it and the rest are refused. */
function fail(batches: PackedBatch[], error: string) {
  new TextEncoder().encodeInto(error.slice(0, 300), errorText);
  Atomics.store(shared, 1, batches[0].ticket);
  settle(batches.slice(0, 1), error);
  if (batches.length > 1) settle(batches.slice(1), "an earlier write failed");
}

function settle(batches: PackedBatch[], error: string | null) {
  if (batches.length === 0) return;
  const last = batches[batches.length - 1];
  Atomics.store(shared, 0, last.ticket);
  Atomics.notify(shared, 0);
  parentPort!.postMessage({ ticket: last.ticket, error });
  if (error === null) journal.postMessage({ applied: last.lsn });
}
