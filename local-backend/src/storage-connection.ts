/** Settings shared by the engine's SQLite connections (the reader on the main thread, the writer and checkpoint threads). */
import fs from "node:fs";
import os from "node:os";
import type Database from "better-sqlite3";

/** how often the checkpoint thread copies the log back when something was written */
export const CHECKPOINT_EVERY_MS = 500;
/**
 * How much of the database file is memory-mapped (address space only; the OS keeps the pages):
 * better-sqlite3's SQLite allows at most 2 GB (SQLITE_MAX_MMAP_SIZE), about a million voters;
 * pages past it are read as before.
 */
const MMAP_BYTES = 0x7fff0000;
export type ConnectionRole = "reader" | "writer" | "checkpointer";

/**
 * SQLite's automatic checkpoint, in log pages, per connection: the writer's only when the
 * checkpoint thread falls behind a long run of commits (256 MB), the reader's for its rare writes
 * (64 MB), none on the checkpoint thread itself.
 */
const AUTOCHECKPOINT_PAGES: Record<ConnectionRole, number> = { writer: 65536, reader: 16384, checkpointer: 0 };

/**
 * The page size of a new database (one made before keeps its own). A statewide file's random-key
 * indexes (names, voter IDs, phones) dirty about one page per new entry, and SQLite writes a whole
 * page to the log and back for each, and reads a whole page per lookup of a page still in the log:
 * 2 KB pages halve those bytes, at a little more space (1M-row import: 172 → 160 µs of CPU a row,
 * 1,780 → 1,894 bytes a voter; 1 KB pages: 169 µs, 1,943 bytes).
 */
const PAGE_BYTES = 2048;

export function openConnection(db: Database.Database, role: ConnectionRole): Database.Database {
  // only a database with no page written yet takes it (the log mode below writes the first)
  db.pragma(`page_size = ${PAGE_BYTES}`);
  db.pragma("journal_mode = WAL");
  // NORMAL in WAL mode keeps every committed transaction across process kills (not power loss).
  db.pragma("synchronous = NORMAL");
  db.pragma("cache_size = -131072");
  db.pragma("temp_store = MEMORY");
  // Pages of the database file are read through a memory map rather than a read() call each: a
  // statewide voter file's indexes are far larger than the page cache, and the writer and the
  // reader look up pages all over them (1M-row import: 179 → 166 µs of CPU a row).
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  // Checkpoints belong to the checkpoint thread (storage-checkpointer.ts), every
  // CHECKPOINT_EVERY_MS: a mutation with many random-key index entries dirties thousands of pages,
  // and copying them back inside a commit made every commit behind it wait.
  db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES[role]}`);
  // What a checkpoint copied back is dead weight in the log: when the log starts over, it is cut
  // back to 16 MB (it would otherwise keep its largest size on disk for good).
  db.pragma("journal_size_limit = 16777216");
  // The reader and the writer never write at the same time (the main thread waits for the writer to
  // drain first); a reader may still meet a checkpoint's short lock.
  db.pragma("busy_timeout = 10000");
  return db;
}

/**
 * A commit of at least this many documents is large: it may wait for the writer (commit.ts
 * admit), and the writer may hold it back to apply it together with the next ones.
 */
export const LARGE_COMMIT_DOCUMENTS = 100;
/**
 * The writer thread applies queued large batches together, in one SQLite transaction
 * (storage-worker.ts), once they hold this many documents or the oldest has waited GROUP_WAIT_MS.
 * A small batch is applied at once, with whatever is queued (a teammate's edit is not held back,
 * and many small commits never pile up as layers every read merges); so is everything a read
 * that needs the database itself up to date asks for (storage.ts drain). A statewide file's
 * random-key index pages are each written to the log once per transaction, so the larger the
 * group, the fewer page writes a row (1M-row import, 8,000 → 16,000: the writer and checkpoint
 * threads 80 → 74 µs of CPU a row). The wait lets a group fill at an import's pace (~8 batches).
 */
export const GROUP_DOCUMENTS = 16_000;
export const GROUP_WAIT_MS = 2_500;
/**
 * A large commit waits while committed documents not yet in the database would pass this
 * (commit.ts admit): a group being applied, a full one queued, and room for the next batches, so
 * the engine's thread does not wait for the writer in a steady import.
 */
export const MAX_UNSTORED_DOCUMENTS = 40_000;
/** the slot of the storage threads' shared memory that holds the ticket the writer must apply at once */
export const SHARED_FLUSH_THROUGH = 2;

/**
 * Lowers the calling thread's scheduling priority by `nice` steps (Linux: a nice value is per
 * thread; elsewhere, or when it cannot be read, nothing changes). The writer and checkpoint
 * threads catch up in the background: on a machine with few cores the engine's thread, which
 * every request waits for, gets a core first.
 */
export function lowerThreadPriority(nice: number) {
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, Math.min(19, os.getPriority(tid) + nice));
  } catch {
    // no per-thread priority here: as before
  }
}
