/**
 * The commit journal: a committed transaction is durable once its packed batch is appended to the
 * journal (one write() of its serialized bytes, in the journal thread, storage-journal-worker.ts),
 * not once the writer thread has applied it to the database (documents, a dozen index entries per
 * document, search rows). Applying a large batch (an import's thousand voters) takes tens of
 * milliseconds; a teammate's one-row mutation committed meanwhile was answered only after it. Now
 * it is answered once its own record is written, while batches are applied behind, in order.
 *
 * Like the database (WAL, synchronous=NORMAL), a written record survives a process kill, not a
 * power loss: the bytes are in the operating system's cache once write() returns.
 *
 * Records live in segment files `journal/<first lsn>.log`: a 20-byte header (magic, payload
 * length, lsn, CRC-32 of the payload) and the batch as v8-serialized by the main thread (the same
 * bytes then go to the writer). Every batch carries its log sequence number (lsn, increasing
 * across restarts); the writer records the last one it applied (`meta.appliedLsn`) in the same
 * SQLite transaction as the batch. On opening, records past it (a kill between journal and apply)
 * are applied before anything reads the database (`replayJournal`); a segment whose records are
 * all applied is deleted.
 */
import type Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { deserialize } from "node:v8";
import { crc32 } from "node:zlib";
import { APPLIED_LSN_KEY, BatchApplier, type PackedBatch } from "./storage-apply.js";

const JOURNAL_DIR = "journal";
const MAGIC = 0x314c4a50; // "PJL1"
const RECORD_HEADER_BYTES = 20;
/** a segment is closed and a new one begun past this size */
export const SEGMENT_BYTES = 64 * 1024 * 1024;

export function journalDir(dataDir: string): string {
  return path.join(dataDir, JOURNAL_DIR);
}

export function segmentName(firstLsn: number): string {
  return `${String(firstLsn).padStart(16, "0")}.log`;
}

/** The header of one record. */
export function recordHeader(lsn: number, payload: Uint8Array): Buffer {
  const h = Buffer.allocUnsafe(RECORD_HEADER_BYTES);
  h.writeUInt32LE(MAGIC, 0);
  h.writeUInt32LE(payload.byteLength, 4);
  h.writeDoubleLE(lsn, 8);
  h.writeUInt32LE(crc32(payload), 16);
  return h;
}

/** The segments of a journal directory, oldest first. */
export function listSegments(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{16}\.log$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

/** The complete records of a segment, in order; a torn record at its end (never acknowledged) ends it. */
export function* readSegment(file: string): Generator<{ lsn: number; payload: Buffer }> {
  const data = fs.readFileSync(file);
  let pos = 0;
  while (pos + RECORD_HEADER_BYTES <= data.length) {
    if (data.readUInt32LE(pos) !== MAGIC) return;
    const length = data.readUInt32LE(pos + 4);
    const lsn = data.readDoubleLE(pos + 8);
    const crc = data.readUInt32LE(pos + 16);
    const start = pos + RECORD_HEADER_BYTES;
    if (start + length > data.length) return;
    const payload = data.subarray(start, start + length);
    if (crc32(payload) !== crc) return;
    yield { lsn, payload };
    pos = start + length;
  }
}

/**
 * Applies every journaled batch the database does not hold yet (lsn above its applied lsn), in
 * order, on `db`, then deletes the segments. Returns the lsn from which new batches continue.
 * A batch that cannot be applied stops the start: it was acknowledged, so it is never dropped.
 */
export function replayJournal(db: Database.Database, dir: string): number {
  const applied = Number(
    (db.prepare("SELECT v FROM meta WHERE k = ?").get(APPLIED_LSN_KEY) as { v: string } | undefined)?.v ?? "0",
  );
  let last = applied;
  let applier: BatchApplier | null = null;
  const segments = listSegments(dir);
  for (const file of segments) {
    for (const { lsn, payload } of readSegment(file)) {
      if (lsn <= last) continue;
      applier ??= new BatchApplier(db);
      try {
        applier.apply(deserialize(payload) as PackedBatch);
      } catch (e) {
        throw new Error(
          `The commit journal (${path.relative(path.dirname(dir), file)}) holds a committed transaction (lsn ${lsn}) that cannot be applied: ${(e as Error).message}. Nothing was dropped; free disk space or report the problem with the data dir.`,
        );
      }
      last = lsn;
    }
  }
  // every record is in the database now (its applied lsn with it): the journal starts empty
  for (const file of segments) fs.rmSync(file, { force: true });
  fs.mkdirSync(dir, { recursive: true });
  return last;
}
