/**
 * The journal thread (storage-journal.ts): appends each committed batch's record to the current
 * segment, reports it durable to the main thread, then hands the same bytes to the writer thread
 * (over `writerPort`, transferred, not copied). The writer reports each batch it applied back on
 * that port; a segment whose records are all applied is deleted.
 */
import fs from "node:fs";
import path from "node:path";
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { recordHeader, SEGMENT_BYTES, segmentName } from "./storage-journal.js";

/** a current segment this large whose records are all applied is dropped (the next record starts another) */
const DROP_APPLIED_BYTES = 4 * 1024 * 1024;

type Init = { dir: string; shared: SharedArrayBuffer; errorText: SharedArrayBuffer; writerPort: MessagePort };
type Batch = { ticket: number; lsn: number; bytes: ArrayBuffer };
const init = workerData as Init;
/** [0] last ticket the writer applied, [1] ticket of a failed batch (0: none): see storage.ts */
const shared = new Int32Array(init.shared);
const errorText = new Uint8Array(init.errorText);
const writer = init.writerPort;

/** closed segments not yet deleted, with the last lsn each holds */
const closed: Array<{ file: string; lastLsn: number }> = [];
let current: { file: string; fd: number; size: number; lastLsn: number } | null = null;
let appliedLsn = 0;

function append(lsn: number, payload: Uint8Array) {
  if (current && current.size >= SEGMENT_BYTES) {
    fs.closeSync(current.fd);
    closed.push({ file: current.file, lastLsn: current.lastLsn });
    current = null;
  }
  if (!current) {
    const file = path.join(init.dir, segmentName(lsn));
    current = { file, fd: fs.openSync(file, "a"), size: 0, lastLsn: 0 };
  }
  const header = recordHeader(lsn, payload);
  fs.writevSync(current.fd, [header, payload]);
  current.size += header.length + payload.byteLength;
  current.lastLsn = lsn;
}

/**
 * Deletes the segments the writer has applied completely; the current one too once it holds a few
 * megabytes (an import's batches are applied soon after they are journaled: the journal stays small).
 */
function prune() {
  if (current && current.lastLsn <= appliedLsn && current.size >= DROP_APPLIED_BYTES) {
    fs.closeSync(current.fd);
    closed.push({ file: current.file, lastLsn: current.lastLsn });
    current = null;
  }
  while (closed.length > 0 && closed[0].lastLsn <= appliedLsn) fs.rmSync(closed.shift()!.file, { force: true });
}

writer.on("message", (m: { applied: number }) => {
  appliedLsn = Math.max(appliedLsn, m.applied);
  prune();
});

parentPort!.on("message", (msg: Batch | { close: true; appliedLsn: number }) => {
  if ("close" in msg) {
    // what the main thread saw applied (it drained the writer first, unless storing failed)
    if (current) {
      fs.closeSync(current.fd);
      closed.push({ file: current.file, lastLsn: current.lastLsn });
    }
    appliedLsn = Math.max(appliedLsn, msg.appliedLsn);
    prune();
    writer.close();
    parentPort!.close();
    return;
  }
  // Later batches were built on top of a failed one: none of them may be written.
  if (Atomics.load(shared, 1) !== 0) {
    parentPort!.postMessage({ ticket: msg.ticket, error: "an earlier write failed" });
    return;
  }
  try {
    append(msg.lsn, new Uint8Array(msg.bytes));
  } catch (e) {
    const error = (e as Error).message;
    new TextEncoder().encodeInto(error.slice(0, 300), errorText);
    Atomics.store(shared, 1, msg.ticket);
    // wake a main thread blocked until everything is applied: nothing more will be
    Atomics.notify(shared, 0);
    parentPort!.postMessage({ ticket: msg.ticket, error });
    return;
  }
  parentPort!.postMessage({ ticket: msg.ticket, error: null });
  writer.postMessage(msg.bytes, [msg.bytes]);
});
