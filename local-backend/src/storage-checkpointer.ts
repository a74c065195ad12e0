/**
 * The checkpoint thread: copies the write-ahead log back into the database file on a connection
 * of its own, so that no commit waits for it. Inside a commit (SQLite's automatic checkpoint) a
 * checkpoint of a busy log took several times a batch's own write, and every commit queued behind
 * that one waited with it. PASSIVE checkpoints never block the writer or readers.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import type DatabaseCtor from "better-sqlite3";
import { CHECKPOINT_EVERY_MS, lowerThreadPriority, openConnection } from "./storage-connection.js";

type Init = { file: string; sqlite: string; shared: SharedArrayBuffer };
const init = workerData as Init;
const Database = createRequire(init.sqlite)(init.sqlite) as typeof DatabaseCtor;
const db = openConnection(new Database(init.file), "checkpointer");
// copying the log back is the least urgent work of all (see lowerThreadPriority)
lowerThreadPriority(10);
/** [0]: the last ticket the writer applied (storage-worker.ts) */
const shared = new Int32Array(init.shared);
let checkpointedAt = -1;
/** log size (pages) past which a checkpoint also starts the log over */
const RESTART_AFTER_PAGES = 16384;
/** journal_size_limit (16 MB): a log file larger than this stays on disk until the next write */
const KEPT_LOG_BYTES = 16 * 1024 * 1024;
let truncatedAt = -1;

function logBytes(): number {
  try {
    return fs.statSync(`${init.file}-wal`).size;
  } catch {
    return 0;
  }
}

const timer = setInterval(() => {
  const ticket = Atomics.load(shared, 0);
  if (ticket === checkpointedAt) {
    // nothing written for a turn: a large log left by a burst (an import) is cut to nothing; a
    // log that started over is cut back to exactly KEPT_LOG_BYTES, which counts as large
    if (truncatedAt !== ticket && logBytes() >= KEPT_LOG_BYTES) {
      try {
        const [r] = db.pragma("wal_checkpoint(TRUNCATE)") as Array<{ busy: number }>;
        // a reader in the way (busy) does not throw: the next idle turn tries again
        if (r?.busy === 0) truncatedAt = ticket;
      } catch {
        // busy: the next idle turn tries again
      }
    }
    return;
  }
  checkpointedAt = ticket;
  try {
    const [r] = db.pragma("wal_checkpoint(PASSIVE)") as Array<{ busy: number; log: number; checkpointed: number }>;
    // Under a steady stream of commits the log never starts over by itself (a passive checkpoint
    // never catches up with the writer). Past RESTART_AFTER_PAGES (32 MB of 2 KB pages), RESTART copies the few frames written since
    // the passive pass, holding the writer only for those, and the log starts over (cut back to
    // journal_size_limit).
    if (r.log > RESTART_AFTER_PAGES) db.pragma("wal_checkpoint(RESTART)");
  } catch {
    // busy (a reader or another checkpoint): the next turn tries again
    checkpointedAt = -1;
  }
}, CHECKPOINT_EVERY_MS);

parentPort!.on("message", (msg: { close: true }) => {
  if (!msg.close) return;
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
