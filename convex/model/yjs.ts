/**
 * Co-edited Yjs documents (tables/yjs.ts): push stores one update under the next sequence number,
 * pull hands a client what it lacks after its cursor (the snapshot first when it is behind what
 * was compacted away), ack records how far a client got, and compaction folds the updates into a
 * chunked snapshot and deletes those every connected client has acknowledged.
 *
 * Invariants per document: the snapshot holds every update up to `snapshotSeq`; every update up to
 * `deletedThrough` (≤ snapshotSeq) is deleted and every later one up to `lastSeq` is stored. So a
 * client at cursor c needs the snapshot exactly when c < deletedThrough.
 */
import type { GenericDatabaseReader, GenericDatabaseWriter, Scheduler } from "convex/server";
import * as Y from "yjs";
import { internal } from "../_generated/api";
import type { DataModel, Doc, Id } from "../_generated/dataModel";
import { appError } from "../lib/errors";
import {
  YJS_CLIENT_TIMEOUT_MS,
  YJS_COMPACT_AFTER_BYTES,
  YJS_COMPACT_AFTER_UPDATES,
  YJS_COMPACT_MAX_BYTES,
  YJS_COMPACT_MAX_UPDATES,
  YJS_MAX_DOC_BYTES,
  YJS_MAX_UPDATE_BYTES,
  YJS_PULL_MAX_BYTES,
  YJS_PULL_MAX_UPDATES,
  YJS_SNAPSHOT_CHUNK_BYTES,
  type YjsPullResult,
} from "../tables/yjs";
import type { Viewer } from "./viewer";

type Reader = GenericDatabaseReader<DataModel>;
type Writer = GenericDatabaseWriter<DataModel>;
type WriteCtx = { db: Writer; scheduler: Scheduler };

/** A client session gone this long is forgotten (its acknowledgement no longer matters). */
export const YJS_FORGET_CLIENT_MS = 24 * 60 * 60 * 1000;
/**
 * Old updates one compaction step may read to delete them (the rest: the next step); a step also
 * deletes at most YJS_COMPACT_MAX_UPDATES, within Convex's writes and index ranges per transaction.
 */
const DELETE_BUDGET_BYTES = YJS_COMPACT_MAX_BYTES;
const MAX_SESSION_ID_LENGTH = 64;

export function checkSessionId(sessionId: string) {
  if (sessionId.length === 0 || sessionId.length > MAX_SESSION_ID_LENGTH || !/^[\w-]+$/.test(sessionId)) {
    throw appError("VALIDATION_ERROR", "Invalid document session.");
  }
}

function checkSeq(n: number, what: string) {
  if (!Number.isSafeInteger(n) || n < 0) throw appError("VALIDATION_ERROR", `Invalid ${what}.`);
}

async function findDoc(db: Reader, orgId: Id<"organizations">, docId: string) {
  return await db
    .query("yDocs")
    .withIndex("by_org_doc", (q) => q.eq("orgId", orgId).eq("docId", docId))
    .unique();
}

async function findClient(db: Reader, docId: string, sessionId: string) {
  return await db
    .query("yClients")
    .withIndex("by_doc_session", (q) => q.eq("docId", docId).eq("sessionId", sessionId))
    .unique();
}

async function snapshotChunks(db: Reader, doc: Doc<"yDocs">) {
  if (doc.snapshotSeq === 0) return [];
  return await db
    .query("ySnapshots")
    .withIndex("by_doc_version", (q) => q.eq("docRef", doc._id).eq("version", doc.snapshotSeq))
    .collect();
}

/** Chunks back into one update. */
export function joinChunks(chunks: ArrayBuffer[]): Uint8Array {
  const total = chunks.reduce((n, c) => n + c.byteLength, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(new Uint8Array(c), at);
    at += c.byteLength;
  }
  return out;
}

/** An ArrayBuffer holding exactly these bytes (what `v.bytes()` stores). */
function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/**
 * What a client at cursor `after` lacks, at most YJS_PULL_MAX_UPDATES updates (or
 * YJS_PULL_MAX_BYTES) at a time. The snapshot comes along when the client is behind what was
 * deleted, or so far behind the snapshot that it is cheaper than the updates (a first load). The
 * caller's own session's updates are skipped: it has them.
 */
export async function pull(
  db: Reader,
  orgId: Id<"organizations">,
  docId: string,
  after: number,
  sessionId?: string,
): Promise<YjsPullResult> {
  checkSeq(after, "cursor");
  const doc = await findDoc(db, orgId, docId);
  if (!doc) return { upTo: 0, lastSeq: 0, snapshot: null, updates: [], more: false };
  // a cursor from the future (the document was reset): start over, Yjs ignores what it has
  let from = after > doc.lastSeq ? 0 : after;
  let snapshot: ArrayBuffer[] | null = null;
  if (doc.snapshotSeq > from && (from < doc.deletedThrough || doc.snapshotSeq - from > YJS_PULL_MAX_UPDATES)) {
    snapshot = (await snapshotChunks(db, doc)).map((c) => c.data);
    from = doc.snapshotSeq;
  }
  const updates: ArrayBuffer[] = [];
  let upTo = from;
  let count = 0;
  let bytes = 0;
  for await (const u of db.query("yUpdates").withIndex("by_doc_seq", (q) => q.eq("docRef", doc._id).gt("seq", from))) {
    if (count > 0 && bytes + u.data.byteLength > YJS_PULL_MAX_BYTES) break;
    count += 1;
    bytes += u.data.byteLength;
    upTo = u.seq;
    if (sessionId === undefined || u.sessionId !== sessionId) updates.push(u.data);
    if (count >= YJS_PULL_MAX_UPDATES) break;
  }
  return { upTo, lastSeq: doc.lastSeq, snapshot, updates, more: upTo < doc.lastSeq };
}

/**
 * Seeds a new record's co-edited document from the server (so no two browsers seed it twice):
 * `write` fills a fresh document, which is stored as the room's first update.
 */
export async function seedDocument(
  ctx: WriteCtx,
  viewer: Pick<Viewer, "userId" | "orgId">,
  room: string,
  recordId: string,
  write: (doc: Y.Doc) => void,
) {
  const doc = new Y.Doc();
  write(doc);
  const update = Y.encodeStateAsUpdate(doc);
  await push(
    ctx,
    viewer,
    room,
    `seed-${recordId}`.slice(0, 64),
    1,
    update.buffer.slice(update.byteOffset, update.byteOffset + update.byteLength) as ArrayBuffer,
  );
}

/**
 * Stores one update from `sessionId` under the next sequence number and returns it. A retried
 * push (clientSeq not above the session's last) stores nothing and returns the last push's number.
 * Schedules compaction once enough arrived since the snapshot.
 */
export async function push(
  ctx: WriteCtx,
  viewer: Pick<Viewer, "userId" | "orgId">,
  docId: string,
  sessionId: string,
  clientSeq: number,
  update: ArrayBuffer,
): Promise<{ seq: number; duplicate: boolean }> {
  checkSessionId(sessionId);
  checkSeq(clientSeq, "update number");
  if (update.byteLength === 0) throw appError("VALIDATION_ERROR", "An empty update cannot be saved.");
  if (update.byteLength > YJS_MAX_UPDATE_BYTES) {
    throw appError(
      "VALIDATION_ERROR",
      `This change is too large to save (${update.byteLength} bytes; the limit is ${YJS_MAX_UPDATE_BYTES}).`,
    );
  }
  const now = Date.now();
  const client = await findClient(ctx.db, docId, sessionId);
  if (client && client.userId !== viewer.userId) throw appError("FORBIDDEN");
  if (client && clientSeq <= client.lastClientSeq) return { seq: client.lastPushSeq, duplicate: true };

  let doc = await findDoc(ctx.db, viewer.orgId, docId);
  if (!doc) {
    const id = await ctx.db.insert("yDocs", {
      orgId: viewer.orgId,
      docId,
      lastSeq: 0,
      snapshotSeq: 0,
      snapshotBytes: 0,
      deletedThrough: 0,
      tailBytes: 0,
    });
    doc = (await ctx.db.get("yDocs", id))!;
  }
  if (doc.snapshotBytes + doc.tailBytes + update.byteLength > YJS_MAX_DOC_BYTES) {
    throw appError(
      "VALIDATION_ERROR",
      `This document is too large to save more changes (the limit is ${YJS_MAX_DOC_BYTES} bytes).`,
    );
  }
  const seq = doc.lastSeq + 1;
  await ctx.db.insert("yUpdates", { orgId: viewer.orgId, docRef: doc._id, seq, data: update, sessionId });
  const next = { ...doc, lastSeq: seq, tailBytes: doc.tailBytes + update.byteLength };
  await ctx.db.patch("yDocs", doc._id, { lastSeq: next.lastSeq, tailBytes: next.tailBytes });
  if (client) await ctx.db.patch("yClients", client._id, { lastClientSeq: clientSeq, lastPushSeq: seq, lastSeen: now });
  else {
    await ctx.db.insert("yClients", {
      orgId: viewer.orgId,
      docId,
      sessionId,
      userId: viewer.userId,
      // not acknowledged yet: holds back deletion like any connected client that has nothing
      ackSeq: 0,
      lastSeen: now,
      lastClientSeq: clientSeq,
      lastPushSeq: seq,
    });
  }
  if (next.lastSeq - next.snapshotSeq >= YJS_COMPACT_AFTER_UPDATES || next.tailBytes >= YJS_COMPACT_AFTER_BYTES) {
    await scheduleCompaction(ctx, next, 0);
  }
  return { seq, duplicate: false };
}

/** The client applied everything up to `seq`; it is connected (for YJS_CLIENT_TIMEOUT_MS). */
export async function ack(
  db: Writer,
  viewer: Pick<Viewer, "userId" | "orgId">,
  docId: string,
  sessionId: string,
  seq: number,
) {
  checkSessionId(sessionId);
  checkSeq(seq, "cursor");
  const now = Date.now();
  const client = await findClient(db, docId, sessionId);
  if (client && client.userId !== viewer.userId) throw appError("FORBIDDEN");
  if (client) await db.patch("yClients", client._id, { ackSeq: seq, lastSeen: now });
  else {
    await db.insert("yClients", {
      orgId: viewer.orgId,
      docId,
      sessionId,
      userId: viewer.userId,
      ackSeq: seq,
      lastSeen: now,
      lastClientSeq: 0,
      lastPushSeq: 0,
    });
    await forgetGoneClients(db, docId, now, 10);
  }
}

/**
 * Deletes up to `limit` sessions of the document not heard from for YJS_FORGET_CLIENT_MS. Run when
 * a session joins and by compaction, so a document opened in many tabs over time keeps few rows.
 */
async function forgetGoneClients(db: Writer, docId: string, now: number, limit: number) {
  const gone = await db
    .query("yClients")
    .withIndex("by_doc_seen", (q) => q.eq("docId", docId).lt("lastSeen", now - YJS_FORGET_CLIENT_MS))
    .take(limit);
  for (const c of gone) await db.delete("yClients", c._id);
}

/**
 * Schedules a compaction step `delayMs` from now unless one is due sooner; a later one (a
 * cleanup waiting for clients' acknowledgements) is brought forward.
 */
async function scheduleCompaction(ctx: WriteCtx, doc: Doc<"yDocs">, delayMs: number) {
  const now = Date.now();
  if (doc.compactJob) {
    const job = await ctx.db.system.get("_scheduled_functions", doc.compactJob);
    if (
      job &&
      (job.state.kind === "inProgress" || (job.state.kind === "pending" && job.scheduledTime <= now + delayMs))
    )
      return;
    if (job && job.state.kind === "pending") await ctx.scheduler.cancel(doc.compactJob);
  }
  const compactJob = await ctx.scheduler.runAfter(delayMs, internal.yjs.compact, { docRef: doc._id });
  await ctx.db.patch("yDocs", doc._id, { compactJob });
}

export type CompactionStep = {
  /** updates folded into the snapshot by this step */
  folded: number;
  /** updates deleted by this step */
  deleted: number;
  snapshotSeq: number;
  snapshotBytes: number;
  deletedThrough: number;
  /** what happens next: another step now, a cleanup once clients acknowledged, or nothing */
  next: "now" | "later" | "none";
};

/**
 * One compaction step, one transaction (idempotent: it only ever moves the snapshot and the
 * deletion point forward). Folds up to YJS_COMPACT_MAX_UPDATES updates after the snapshot into a
 * new snapshot (the document rebuilt and re-encoded: deleted content is garbage-collected), stored
 * in chunks under YJS_SNAPSHOT_CHUNK_BYTES, then deletes the updates the snapshot holds that every
 * connected client has acknowledged. Schedules the next step when work is left.
 */
export async function compactStep(ctx: WriteCtx, docRef: Id<"yDocs">): Promise<CompactionStep | null> {
  const doc = await ctx.db.get("yDocs", docRef);
  if (!doc) return null;
  const now = Date.now();

  let snapshotSeq = doc.snapshotSeq;
  let snapshotBytes = doc.snapshotBytes;
  let tailBytes = doc.tailBytes;
  const folded: Doc<"yUpdates">[] = [];
  let batchCapped = false;
  if (doc.lastSeq > doc.snapshotSeq) {
    const old = await snapshotChunks(ctx.db, doc);
    let bytes = 0;
    for await (const u of ctx.db
      .query("yUpdates")
      .withIndex("by_doc_seq", (q) => q.eq("docRef", doc._id).gt("seq", doc.snapshotSeq))) {
      if (folded.length > 0 && bytes + u.data.byteLength > YJS_COMPACT_MAX_BYTES) {
        batchCapped = true;
        break;
      }
      folded.push(u);
      bytes += u.data.byteLength;
      if (folded.length >= YJS_COMPACT_MAX_UPDATES) {
        batchCapped = folded[folded.length - 1].seq < doc.lastSeq;
        break;
      }
    }
    if (folded.length > 0) {
      const state = foldUpdates(
        old.map((c) => c.data),
        folded.map((u) => u.data),
      );
      snapshotSeq = folded[folded.length - 1].seq;
      snapshotBytes = state.byteLength;
      tailBytes = Math.max(0, doc.tailBytes - bytes);
      for (let i = 0, at = 0; at < state.byteLength || i === 0; i++, at += YJS_SNAPSHOT_CHUNK_BYTES) {
        const data = toArrayBuffer(state.subarray(at, at + YJS_SNAPSHOT_CHUNK_BYTES));
        await ctx.db.insert("ySnapshots", { orgId: doc.orgId, docRef, version: snapshotSeq, index: i, data });
      }
      for (const c of old) await ctx.db.delete("ySnapshots", c._id);
    }
  }

  // Delete what the snapshot holds and every connected client has acknowledged, in sequence order.
  const connected = await ctx.db
    .query("yClients")
    .withIndex("by_doc_seen", (q) => q.eq("docId", doc.docId).gte("lastSeen", now - YJS_CLIENT_TIMEOUT_MS))
    .take(1_000);
  const minAck = connected.reduce((m, c) => Math.min(m, c.ackSeq), Number.POSITIVE_INFINITY);
  const deleteTo = Math.min(snapshotSeq, minAck);
  let deletedThrough = doc.deletedThrough;
  let deleted = 0;
  let budgetLeft = true;
  if (deleteTo > deletedThrough) {
    // first the updates an earlier step folded but kept for a client that had not caught up
    let bytes = 0;
    const kept = ctx.db
      .query("yUpdates")
      .withIndex("by_doc_seq", (q) =>
        q.eq("docRef", doc._id).gt("seq", deletedThrough).lte("seq", Math.min(deleteTo, doc.snapshotSeq)),
      );
    for await (const u of kept) {
      if (deleted >= YJS_COMPACT_MAX_UPDATES || (bytes > 0 && bytes + u.data.byteLength > DELETE_BUDGET_BYTES)) {
        budgetLeft = false;
        break;
      }
      bytes += u.data.byteLength;
      await ctx.db.delete("yUpdates", u._id);
      deletedThrough = u.seq;
      deleted += 1;
    }
    if (budgetLeft) {
      deletedThrough = Math.max(deletedThrough, Math.min(deleteTo, doc.snapshotSeq));
      // then the ones this step folded (already read)
      for (const u of folded) {
        if (u.seq > deleteTo) break;
        if (deleted >= YJS_COMPACT_MAX_UPDATES) {
          budgetLeft = false;
          break;
        }
        await ctx.db.delete("yUpdates", u._id);
        deletedThrough = u.seq;
        deleted += 1;
      }
    }
  }

  await forgetGoneClients(ctx.db, doc.docId, now, 100);

  const next: CompactionStep["next"] =
    batchCapped || !budgetLeft ? "now" : deletedThrough < snapshotSeq ? "later" : "none";
  await ctx.db.patch("yDocs", doc._id, {
    snapshotSeq,
    snapshotBytes,
    tailBytes,
    deletedThrough,
    compactJob: undefined,
  });
  if (next !== "none") {
    const updated = { ...doc, snapshotSeq, snapshotBytes, tailBytes, deletedThrough, compactJob: undefined };
    await scheduleCompaction(ctx, updated, next === "now" ? 0 : YJS_CLIENT_TIMEOUT_MS);
  }
  return { folded: folded.length, deleted, snapshotSeq, snapshotBytes, deletedThrough, next };
}

/**
 * The snapshot and the updates, applied in order to a fresh document and encoded as one update.
 * Applying inside one transaction keeps 10,000 small updates in tens of milliseconds.
 */
export function foldUpdates(snapshotChunks: ArrayBuffer[], updates: ArrayBuffer[]): Uint8Array {
  const ydoc = new Y.Doc();
  try {
    ydoc.transact(() => {
      if (snapshotChunks.length > 0) Y.applyUpdate(ydoc, joinChunks(snapshotChunks));
      for (const u of updates) Y.applyUpdate(ydoc, new Uint8Array(u));
    });
    return Y.encodeStateAsUpdate(ydoc);
  } finally {
    ydoc.destroy();
  }
}
