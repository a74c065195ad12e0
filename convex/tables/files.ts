import { defineTable } from "convex/server";
import { v } from "convex/values";

/** What an upload is for: each purpose has its permission, types and size (model/files.ts UPLOAD_RULES). */
export const vUploadPurpose = v.union(
  v.literal("image"),
  v.literal("petitionPage"),
  v.literal("mapLayer"),
  v.literal("basemap"),
);

export const fileTables = {
  /**
   * Every stored file the app keeps is owned: one row per `_storage` file, written when an
   * organisation's member hands in its upload (after its bytes were checked), attached when a
   * record (an image, a petition page) takes it. A file is used, served or deleted only through
   * its organisation's row; uploads nobody handed in, and handed-in files nothing attached, are
   * swept after `UPLOAD_DEADLINE_MS`.
   */
  files: defineTable({
    orgId: v.id("organizations"),
    storageId: v.id("_storage"),
    purpose: vUploadPurpose,
    /** the type read from the file's first bytes (never the uploader's declaration) */
    contentType: v.string(),
    size: v.number(),
    /** null for files stored before uploads were owned (migrations.ownStoredFiles) */
    uploadedBy: v.union(v.id("users"), v.null()),
    createdAt: v.number(),
    /** when a record took the file; null while handed in but unused */
    attachedAt: v.union(v.number(), v.null()),
  })
    .index("by_storage", ["storageId"])
    .index("by_attached_created", ["attachedAt", "createdAt"]),

  /** The sweep's progress through `_storage` (one row): uploads created up to `scannedUntil` were looked at. */
  fileSweep: defineTable({ scannedUntil: v.number() }),
};
