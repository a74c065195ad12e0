/**
 * Map data per organisation (issue 36): layers arrive from the browser, which parsed the files in
 * a worker (lib/geo/tiger.ts rows) — a layer record first ("loading"), its rows in batches within
 * Convex's limits, then `finish` makes it the organisation's layer of its kind (the one it
 * replaces goes, a chain deleting its rows) and a streets layer starts geocoding the voters. Only
 * ready layers are drawn and queried; a loading one left behind (the browser closed) is deleted
 * by the admin like any other.
 */
import type { Infer } from "convex/values";
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import type { vBBox } from "../tables/geo";
import { startLayerDrop } from "./districts";
import { deleteOwnedFile } from "./files";
export {
  BOUNDARIES_PER_BATCH,
  BOUNDARY_MAX_TEXT,
  BOUNDARY_TEXT_PER_BATCH,
  SEGMENTS_PER_BATCH,
} from "../lib/geo/limits";

type Db = QueryCtx["db"];

/** Rows deleted per step of a layer's deletion. */
const DELETE_STEP = 1000;
/** A layer's name and file name. */
export const LAYER_NAME_MAX = 200;

export const LAYER_GONE = "This map layer no longer exists.";
const TITLE = "Map data";

export async function loadLayer(db: Db, layerId: Id<"mapLayers">): Promise<Doc<"mapLayers">> {
  const layer = await db.get("mapLayers", layerId);
  if (!layer || layer.status === "deleting") throw appError("NOT_FOUND", LAYER_GONE, TITLE);
  return layer;
}

export async function loadingLayer(
  db: Db,
  layerId: Id<"mapLayers">,
  kind: Doc<"mapLayers">["kind"],
): Promise<Doc<"mapLayers">> {
  const layer = await loadLayer(db, layerId);
  if (layer.kind !== kind) throw appError("VALIDATION_ERROR", `This is not a ${kind} layer.`, TITLE);
  if (layer.status !== "loading") throw appError("VALIDATION_ERROR", "This layer is already complete.", TITLE);
  return layer;
}

/** The organisation's ready layer of a kind (the newest, should two ever be). */
export async function readyLayer(
  db: Db,
  orgId: Id<"organizations">,
  kind: Doc<"mapLayers">["kind"],
): Promise<Doc<"mapLayers"> | null> {
  const layers = await db
    .query("mapLayers")
    .withIndex("by_org_kind", (q) => q.eq("orgId", orgId).eq("kind", kind))
    .order("desc")
    .collect();
  return layers.find((l) => l.status === "ready") ?? null;
}

/** A bounding box [west, south, east, north] in lon/lat, or a refusal. */
export function checkBBox(bbox: Infer<typeof vBBox>): void {
  const [w, s, e, n] = bbox;
  const ok =
    bbox.length === 4 &&
    bbox.every(Number.isFinite) &&
    w >= -180 &&
    e <= 180 &&
    s >= -90 &&
    n <= 90 &&
    w <= e &&
    s <= n;
  if (!ok) throw appError("VALIDATION_ERROR", "The layer's coordinates are not longitude and latitude.", TITLE);
}

/**
 * Makes a loaded layer ready: every feature is stored, the layer it replaces (and any other of
 * the kind) starts deleting. Boundaries of one TIGER layer replace that layer only (precincts do
 * not replace counties).
 */
export async function finishLayer(ctx: MutationCtx, layer: Doc<"mapLayers">): Promise<void> {
  if (layer.kind !== "basemap" && layer.stored !== layer.features) {
    throw appError(
      "VALIDATION_ERROR",
      `Only ${layer.stored.toLocaleString("en-US")} of ${layer.features.toLocaleString("en-US")} features arrived. Please upload the file again.`,
      TITLE,
    );
  }
  const now = Date.now();
  await ctx.db.patch("mapLayers", layer._id, { status: "ready", updatedAt: now });
  const others = await ctx.db
    .query("mapLayers")
    .withIndex("by_org_kind", (q) => q.eq("orgId", layer.orgId).eq("kind", layer.kind))
    .collect();
  for (const o of others) {
    if (o._id === layer._id || o.status !== "ready") continue;
    const sameSlot = layer.kind !== "boundaries" || o.tigerLayer === layer.tigerLayer || o._id === layer.replaces;
    if (sameSlot) await startDeleting(ctx, o);
  }
}

export async function startDeleting(ctx: MutationCtx, layer: Doc<"mapLayers">): Promise<void> {
  if (layer.status === "deleting") return;
  await ctx.db.patch("mapLayers", layer._id, { status: "deleting", updatedAt: Date.now() });
  await ctx.scheduler.runAfter(0, internal.mapData.deleteStep, { layerId: layer._id });
  // a ready boundaries layer's districts lose their outlines, and the voters are assigned again
  if (layer.status === "ready") await startLayerDrop(ctx, layer);
}

/** One step of a layer's deletion: a batch of its rows; the last step removes its file and record. */
export async function deleteStep(ctx: MutationCtx, layerId: Id<"mapLayers">): Promise<void> {
  const layer = await ctx.db.get("mapLayers", layerId);
  if (!layer) return;
  const table = layer.kind === "streets" ? "streetSegments" : layer.kind === "boundaries" ? "boundaries" : null;
  if (table) {
    const rows = await ctx.db
      .query(table)
      .withIndex("by_layer", (q) => q.eq("layerId", layerId))
      .take(DELETE_STEP);
    for (const r of rows) await ctx.db.delete(table, r._id);
    if (rows.length === DELETE_STEP) {
      await ctx.scheduler.runAfter(0, internal.mapData.deleteStep, { layerId });
      return;
    }
  }
  if (layer.storageId) await deleteOwnedFile(ctx, layer.orgId, layer.storageId);
  await ctx.db.delete("mapLayers", layerId);
}
