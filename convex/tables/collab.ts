/**
 * Collaboration (DESIGN.md §5): who last changed each field of a shared record (conflict messages
 * name the teammate), presence per room, and Yjs documents relayed and stored through Convex.
 */
import { defineTable } from "convex/server";
import { v } from "convex/values";

/** A tab beats every PRESENCE_HEARTBEAT_MS and is gone PRESENCE_TIMEOUT_MS after its last beat. */
export const PRESENCE_HEARTBEAT_MS = 2_500;
export const PRESENCE_TIMEOUT_MS = 8_000;

/** Who last saved a field of a record, and who deleted it: the names in conflict messages. */
export const vFieldMark = v.object({ userId: v.id("users"), name: v.string(), at: v.number() });

export const collabTables = {
  /** One per edited or deleted record (any table): the last editor of each field. */
  editMarks: defineTable({
    orgId: v.id("organizations"),
    /** the record's id (any table) */
    recordId: v.string(),
    /** field path ("phone", "custom_fields.k") → who saved it last */
    fields: v.record(v.string(), vFieldMark),
    deleted: v.optional(vFieldMark),
  })
    .index("by_record", ["recordId"])
    .index("by_deleted_at", ["deleted.at"]),

  /**
   * One per (room, browser tab) present. Only joins, leaves and awareness changes write here,
   * so the room's live list re-runs on those and never on a heartbeat.
   */
  presence: defineTable({
    orgId: v.id("organizations"),
    room: v.string(),
    sessionId: v.string(),
    userId: v.id("users"),
    name: v.string(),
    image: v.optional(v.string()),
    color: v.string(),
    /** awareness (cursor, selection, field being edited): small, set by the client */
    state: v.optional(v.any()),
    joinedAt: v.number(),
  })
    .index("by_room", ["room"])
    .index("by_session_room", ["sessionId", "room"]),

  /** Heartbeats, kept apart from `presence` so that no list query reads them. */
  presenceBeats: defineTable({
    orgId: v.id("organizations"),
    presenceId: v.id("presence"),
    lastSeen: v.number(),
    /** the pending expiry check (one per row at a time) */
    expiry: v.optional(v.id("_scheduled_functions")),
  }).index("by_presence", ["presenceId"]),
};

/** One tab in a room, as the room's live list shows it. */
export const vPresenceEntry = v.object({
  sessionId: v.string(),
  userId: v.id("users"),
  name: v.string(),
  image: v.optional(v.string()),
  color: v.string(),
  state: v.optional(v.any()),
});

/** A field value in an edit: a JSON scalar or a list of strings (ids), null for "no value". */
export const vEditValue = v.union(v.string(), v.number(), v.boolean(), v.null(), v.array(v.string()));

/** One field of a save: the value the editor started from and the new one. */
export const vFieldEdit = v.object({ field: v.string(), base: vEditValue, value: vEditValue });

/** What an open form reads to name teammates: last editor per field, and who deleted the record. */
export const vEditState = v.object({
  fields: v.record(v.string(), vFieldMark),
  deleted: v.union(vFieldMark, v.null()),
});
