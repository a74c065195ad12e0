/** Settings shared by the engine's SQLite connections (the reader on the main thread, the writer thread). */
import type Database from "better-sqlite3";

export function openConnection(db: Database.Database): Database.Database {
  db.pragma("journal_mode = WAL");
  // NORMAL in WAL mode keeps every committed transaction across process kills (not power loss).
  db.pragma("synchronous = NORMAL");
  db.pragma("cache_size = -131072");
  db.pragma("temp_store = MEMORY");
  // A mutation with many random-key index entries (emails, names, search rows) dirties
  // thousands of pages; checkpointing every 1000 pages (the default) copied them back to the
  // database file after nearly every commit. A 64 MB WAL lets repeated page writes coalesce.
  db.pragma("wal_autocheckpoint = 16384");
  // What a checkpoint copied back is dead weight in the log: when the log starts over, it is cut
  // back to 16 MB (it would otherwise keep its largest size on disk for good).
  db.pragma("journal_size_limit = 16777216");
  // The two connections never write at the same time (the main thread waits for the writer to
  // drain first); a reader may still meet a checkpoint's short lock.
  db.pragma("busy_timeout = 10000");
  return db;
}
