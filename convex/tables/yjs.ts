/**
 * Co-edited documents (DESIGN.md §5): Yjs updates relayed and stored through Convex. A document
 * is a room ("campaign:<id>", model/rooms.ts); clients push binary Yjs updates, which get a
 * sequence number, and pull what they lack by cursor. Past a threshold the updates are folded
 * into a snapshot stored in chunks, and the folded updates every connected client has
 * acknowledged are deleted. Every stored document stays under Convex's 1 MiB.
 */
import { defineTable } from "convex/server";
import { v, type Infer } from "convex/values";

/** Largest single update a client may push (one stored document, under Convex's 1 MiB). */
export const YJS_MAX_UPDATE_BYTES = 900_000;
/** Snapshot chunk size: each chunk is one document, under Convex's 1 MiB. */
export const YJS_SNAPSHOT_CHUNK_BYTES = 900_000;
/**
 * Largest document (snapshot plus updates since): a pull reads the whole snapshot and a tail of at
 * most YJS_PULL_MAX_BYTES, and compaction reads both plus old updates, within 16 MiB per transaction.
 */
export const YJS_MAX_DOC_BYTES = 6 * 1024 * 1024;
/** Compaction starts once this many updates, or this many bytes, arrived since the snapshot. */
export const YJS_COMPACT_AFTER_UPDATES = 500;
export const YJS_COMPACT_AFTER_BYTES = 2 * 1024 * 1024;
/** One compaction step folds at most this many updates / bytes (more: the next step continues). */
export const YJS_COMPACT_MAX_UPDATES = 2_000;
export const YJS_COMPACT_MAX_BYTES = 4 * 1024 * 1024;
/** One pull carries at most this many updates / bytes (at least one); the client pulls again. */
export const YJS_PULL_MAX_UPDATES = 500;
export const YJS_PULL_MAX_BYTES = 4 * 1024 * 1024;
/** A client is connected while it acknowledged within this time; clients ack every YJS_ACK_EVERY_MS. */
export const YJS_CLIENT_TIMEOUT_MS = 30_000;
export const YJS_ACK_EVERY_MS = 10_000;

export const yjsTables = {
  /** One per co-edited document: the sequence counter and where the snapshot and the tail stand. */
  yDocs: defineTable({
    orgId: v.id("organizations"),
    /** the room name, "kind:recordId" */
    docId: v.string(),
    /** the last update's sequence number (0: none yet) */
    lastSeq: v.number(),
    /** the snapshot holds every update up to this sequence number (0: no snapshot) */
    snapshotSeq: v.number(),
    snapshotBytes: v.number(),
    /** every update up to this sequence number is deleted; all later ones are stored */
    deletedThrough: v.number(),
    /** bytes of the updates after snapshotSeq (the tail a load applies after the snapshot) */
    tailBytes: v.number(),
    /** the pending compaction step, if any */
    compactJob: v.optional(v.id("_scheduled_functions")),
  }).index("by_org_doc", ["orgId", "docId"]),

  /** One Yjs update (binary, as the client encoded it), in sequence order per document. */
  yUpdates: defineTable({
    orgId: v.id("organizations"),
    docRef: v.id("yDocs"),
    seq: v.number(),
    data: v.bytes(),
    /** the browser tab (provider instance) that pushed it: its own pulls skip it */
    sessionId: v.string(),
  }).index("by_doc_seq", ["docRef", "seq"]),

  /** The snapshot, in chunks of at most YJS_SNAPSHOT_CHUNK_BYTES; `version` is its snapshotSeq. */
  ySnapshots: defineTable({
    orgId: v.id("organizations"),
    docRef: v.id("yDocs"),
    version: v.number(),
    index: v.number(),
    data: v.bytes(),
  }).index("by_doc_version", ["docRef", "version", "index"]),

  /**
   * One per (document, client session): what it acknowledged and when it was last heard from
   * (connected: within YJS_CLIENT_TIMEOUT_MS), and its last push (a retried push is not stored
   * twice). Keyed by docId so that acks never touch the document row pushes write.
   */
  yClients: defineTable({
    orgId: v.id("organizations"),
    docId: v.string(),
    sessionId: v.string(),
    userId: v.id("users"),
    ackSeq: v.number(),
    lastSeen: v.number(),
    lastClientSeq: v.number(),
    lastPushSeq: v.number(),
  })
    .index("by_doc_session", ["docId", "sessionId"])
    .index("by_doc_seen", ["docId", "lastSeen"]),
};

export const vYjsPullArgs = {
  docId: v.string(),
  /** the last sequence number the client applied (0: nothing yet) */
  after: v.number(),
  /** the client's session: its own updates are skipped (it has them) */
  sessionId: v.optional(v.string()),
};

/** What a client lacks: apply the snapshot chunks (concatenated) first, then the updates in order. */
export const vYjsPullResult = v.object({
  /** the client's cursor once it applied this reply */
  upTo: v.number(),
  /** the document's last sequence number */
  lastSeq: v.number(),
  /** the snapshot, when the client is behind what was compacted away (or far behind it) */
  snapshot: v.union(v.null(), v.array(v.bytes())),
  updates: v.array(v.bytes()),
  /** more updates are waiting after upTo: pull again from there */
  more: v.boolean(),
});
export type YjsPullResult = Infer<typeof vYjsPullResult>;

export const vYjsPushArgs = {
  docId: v.string(),
  sessionId: v.string(),
  /** per session, increasing: a retried push with a number already stored is not stored again */
  clientSeq: v.number(),
  update: v.bytes(),
};

export const vYjsPushResult = v.object({ seq: v.number(), duplicate: v.boolean() });

export const vYjsAckArgs = { docId: v.string(), sessionId: v.string(), seq: v.number() };
