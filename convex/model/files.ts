/**
 * Uploads, one way for every area (images of designs, petition page scans, and whatever comes
 * next): a budgeted upload URL, then `acceptUpload` (an action) reads the file's first bytes,
 * refuses what is not of an allowed type or too large — deleting it in a step of its own, which
 * the refusal cannot roll back — and records the file as the organisation's; then the area's
 * mutation attaches it to its record with `attachFile`. A file is used or deleted only through
 * its organisation's row (`deleteOwnedFile`), so a storage id seen elsewhere (image URLs are
 * public) is worth nothing to another organisation. Uploads never handed in and handed-in files
 * never attached are swept after `UPLOAD_DEADLINE_MS` (files.sweep, a cron).
 */
import { defineRateLimits } from "convex-helpers/server/rateLimit";
import { fileTypeFromBuffer } from "file-type/core";
import type { Infer } from "convex/values";
import { internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import type { ActionCtx, DatabaseReader, MutationCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { IMAGE_MAX_BYTES } from "../lib/images";
import type { vUploadPurpose } from "../tables/files";
import { TEXTS } from "../lib/texts";
import { BASEMAP_MAX_BYTES, GEOJSON_TYPE, LAYER_MAX_BYTES, PMTILES_TYPE } from "../lib/geo/limits";

export type UploadPurpose = Infer<typeof vUploadPurpose>;

/** Who uploads: an action's viewer. */
type Uploader = { userId: Id<"users">; orgId: Id<"organizations"> };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** An upload must be handed in (acceptUpload) and attached within this time, or it is swept. */
export const UPLOAD_DEADLINE_MS = 30 * MINUTE;

type Rule = { types: readonly string[]; maxBytes: number; wrongType: string; tooLarge: string; title: string };

/** What each purpose accepts: types are read from the bytes, sizes from the stored file. */
export const UPLOAD_RULES: Record<UploadPurpose, Rule> = {
  /** PNG, JPEG, GIF, WebP under 5 MB (spec/2 §5); SVG is refused, it can carry script. */
  image: {
    types: ["image/png", "image/jpeg", "image/gif", "image/webp"],
    maxBytes: IMAGE_MAX_BYTES - 1,
    wrongType: TEXTS.images.wrongType,
    tooLarge: TEXTS.images.tooLarge,
    title: "Upload failed",
  },
  petitionPage: {
    types: ["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf"],
    maxBytes: 15 * 1024 * 1024,
    wrongType: "Please upload petition pages as images (PNG, JPEG, GIF, WebP) or PDF files.",
    tooLarge: "A page file must be smaller than 15 MB.",
    title: "Upload failed",
  },
  /** the drawing copy of a streets or boundaries layer, GeoJSON the browser wrote from the file it parsed */
  mapLayer: {
    types: [GEOJSON_TYPE],
    maxBytes: LAYER_MAX_BYTES,
    wrongType: "The map layer must be stored as GeoJSON.",
    tooLarge: "A map layer must be smaller than 300 MB. Upload a county or a smaller area.",
    title: "Upload failed",
  },
  /** a PMTiles basemap archive (version 3) */
  basemap: {
    types: [PMTILES_TYPE],
    maxBytes: BASEMAP_MAX_BYTES,
    wrongType: TEXTS.mapData.notPmtiles,
    tooLarge: TEXTS.mapData.basemapTooLarge,
    title: "Upload failed",
  },
};

const NOT_ARRIVED = "The upload did not arrive. Please try again.";

/**
 * Upload URLs are budgeted per member and per organisation, whatever the purpose: with the sweep,
 * this bounds what a member (or a stolen session) can park in storage.
 */
export const { rateLimit: uploadRateLimit } = defineRateLimits({
  uploadsPerMember: { kind: "token bucket", rate: 60, period: HOUR, capacity: 30 },
  uploadsPerOrg: { kind: "token bucket", rate: 600, period: HOUR, capacity: 200 },
});

/** Spends one upload from the member's and the organisation's budgets (the limiter's own table: a mutation outside any organisation). */
export async function spendUploadBudget(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  userId: Id<"users">,
): Promise<boolean> {
  if (!(await uploadRateLimit(ctx, { name: "uploadsPerMember", key: userId })).ok) return false;
  return (await uploadRateLimit(ctx, { name: "uploadsPerOrg", key: orgId })).ok;
}

/** A fresh upload URL, once the member's and the organisation's upload budgets allow one. */
export async function issueUploadUrl(ctx: ActionCtx, viewer: Uploader): Promise<string> {
  if (!(await ctx.runMutation(internal.files.spendBudget, { orgId: viewer.orgId, userId: viewer.userId }))) {
    throw appError("RATE_LIMIT", "Too many uploads. Please wait a few minutes and try again.", "Upload failed");
  }
  return await ctx.storage.generateUploadUrl();
}

/** The first bytes of a file, enough for any signature file-type reads. */
const SNIFF_BYTES = 4100;

/** The type a file's bytes show (null: none known), never its declared type. */
export async function sniffType(blob: Blob): Promise<string | null> {
  const head = new Uint8Array(await blob.slice(0, SNIFF_BYTES).arrayBuffer());
  const known = (await fileTypeFromBuffer(head))?.mime;
  if (known) return known;
  // PMTiles v3: "PMTiles" then the version byte
  if (head.length >= 8 && String.fromCharCode(...head.subarray(0, 7)) === "PMTiles" && head[7] === 3)
    return PMTILES_TYPE;
  // GeoJSON: a JSON object with a "type" member among its first bytes
  const text = new TextDecoder("utf-8", { fatal: false }).decode(head).trimStart();
  if (text.startsWith("{") && /"type"\s*:/.test(text)) return GEOJSON_TYPE;
  return null;
}

export type UploadState =
  | { state: "missing" | "other" | "expired" }
  | { state: "own"; attached: boolean; purpose: UploadPurpose; contentType: string; size: number }
  | { state: "free"; declaredType: string; size: number };

/** Where an upload stands for `orgId` (reads every organisation's rows: only internal callers). */
export async function uploadState(
  db: DatabaseReader,
  orgId: Id<"organizations">,
  storageId: Id<"_storage">,
  now: number,
): Promise<UploadState> {
  const row = await db
    .query("files")
    .withIndex("by_storage", (q) => q.eq("storageId", storageId))
    .unique();
  if (row) {
    if (row.orgId !== orgId) return { state: "other" };
    return {
      state: "own",
      attached: row.attachedAt !== null,
      purpose: row.purpose,
      contentType: row.contentType,
      size: row.size,
    };
  }
  const meta = await db.system.get("_storage", storageId);
  if (!meta) return { state: "missing" };
  if (meta._creationTime < now - UPLOAD_DEADLINE_MS) return { state: "expired" };
  return { state: "free", declaredType: meta.contentType ?? "", size: meta.size };
}

/**
 * Hands in an upload for `purpose`: refuses another organisation's file (as if it did not
 * exist), an old unowned one, a wrong type (by its bytes, and its declared type must agree, since
 * storage serves the declared one) or a file too large — deleting a refused file of nobody's
 * first — and otherwise records it as the caller's organisation's. Idempotent for the caller's
 * own unattached file.
 */
export async function acceptUpload(
  ctx: ActionCtx,
  viewer: Uploader,
  storageId: Id<"_storage">,
  purpose: UploadPurpose,
): Promise<{ contentType: string; size: number }> {
  const rule = UPLOAD_RULES[purpose];
  const state = await ctx.runQuery(internal.files.state, { orgId: viewer.orgId, storageId });
  if (state.state === "own") {
    if (state.attached || state.purpose !== purpose) throw appError("VALIDATION_ERROR", NOT_ARRIVED, rule.title);
    return { contentType: state.contentType, size: state.size };
  }
  if (state.state !== "free") throw appError("VALIDATION_ERROR", NOT_ARRIVED, rule.title);
  const refuse = async (message: string) => {
    await ctx.runMutation(internal.files.discard, { storageId });
    return appError("VALIDATION_ERROR", message, rule.title);
  };
  if (state.size > rule.maxBytes) throw await refuse(rule.tooLarge);
  const blob = await ctx.storage.get(storageId);
  if (!blob) throw appError("VALIDATION_ERROR", NOT_ARRIVED, rule.title);
  const sniffed = await sniffType(blob);
  const declared = state.declaredType.split(";")[0].trim().toLowerCase();
  if (!sniffed || !rule.types.includes(sniffed) || declared !== sniffed) throw await refuse(rule.wrongType);
  const claimed = await ctx.runMutation(internal.files.claim, {
    orgId: viewer.orgId,
    userId: viewer.userId,
    storageId,
    purpose,
    contentType: sniffed,
    size: state.size,
  });
  if (!claimed) throw appError("VALIDATION_ERROR", NOT_ARRIVED, rule.title);
  return { contentType: sniffed, size: state.size };
}

/**
 * Attaches a handed-in file of the caller's organisation to a record (`db` is the org-scoped
 * database, so another organisation's file is not found). Returns its checked type and size.
 */
export async function attachFile(
  db: MutationCtx["db"],
  storageId: Id<"_storage">,
  purpose: UploadPurpose,
): Promise<{ contentType: string; size: number }> {
  const row = await db
    .query("files")
    .withIndex("by_storage", (q) => q.eq("storageId", storageId))
    .unique();
  if (!row || row.purpose !== purpose || row.attachedAt !== null)
    throw appError("VALIDATION_ERROR", NOT_ARRIVED, UPLOAD_RULES[purpose].title);
  await db.patch("files", row._id, { attachedAt: Date.now() });
  return { contentType: row.contentType, size: row.size };
}

/** Deletes a file `orgId` owns with its row; anyone else's file (or nobody's) is left alone. */
export async function deleteOwnedFile(
  ctx: Pick<MutationCtx, "storage" | "db">,
  orgId: Id<"organizations">,
  storageId: Id<"_storage">,
): Promise<void> {
  const row = await ctx.db
    .query("files")
    .withIndex("by_storage", (q) => q.eq("storageId", storageId))
    .unique();
  if (!row || row.orgId !== orgId) return;
  await ctx.db.delete("files", row._id);
  if (await ctx.db.system.get("_storage", storageId)) await ctx.storage.delete(storageId);
}

const SWEEP_BATCH = 200;

/**
 * Deletes, as of `now`, handed-in files nothing attached and uploads nobody handed in, both past
 * `UPLOAD_DEADLINE_MS` (walking `_storage` by creation time from where the last sweep stopped).
 * The first sweep of a deployment only marks its time: files stored before uploads were owned are
 * never taken for strays. Returns whether a batch came back full (more to sweep).
 */
export async function sweepUploads(ctx: Pick<MutationCtx, "db" | "storage">, now: number): Promise<boolean> {
  const before = now - UPLOAD_DEADLINE_MS;
  const unused = await ctx.db
    .query("files")
    .withIndex("by_attached_created", (q) => q.eq("attachedAt", null).lt("createdAt", before))
    .take(SWEEP_BATCH);
  for (const row of unused) {
    await ctx.db.delete("files", row._id);
    if (await ctx.db.system.get("_storage", row.storageId)) await ctx.storage.delete(row.storageId);
  }
  const mark = await ctx.db.query("fileSweep").first();
  if (!mark) {
    // Creation times have sub-millisecond parts and may run a little ahead of `now`: every upload
    // that exists at the first sweep is older than its mark, never a stray.
    const newest = await ctx.db.system.query("_storage").withIndex("by_creation_time").order("desc").first();
    await ctx.db.insert("fileSweep", { scannedUntil: Math.max(now, newest?._creationTime ?? 0) });
    return unused.length === SWEEP_BATCH;
  }
  const from = mark.scannedUntil;
  const uploads = await ctx.db.system
    .query("_storage")
    .withIndex("by_creation_time", (q) => q.gt("_creationTime", from).lt("_creationTime", before))
    .take(SWEEP_BATCH);
  for (const file of uploads) {
    const owned = await ctx.db
      .query("files")
      .withIndex("by_storage", (q) => q.eq("storageId", file._id))
      .unique();
    if (!owned) await ctx.storage.delete(file._id);
  }
  if (uploads.length > 0)
    await ctx.db.patch("fileSweep", mark._id, { scannedUntil: uploads[uploads.length - 1]._creationTime });
  return unused.length === SWEEP_BATCH || uploads.length === SWEEP_BATCH;
}
