/**
 * Map data (Account Settings → Map data; issue 36): every member sees the organisation's layers
 * and tile source (the maps draw them); an admin holding `organization.manage` uploads, replaces
 * and deletes layers and sets the tile source. The browser parses a file in a worker and sends
 * its rows here in batches (model/mapData.ts).
 */
import { TEXTS } from "./lib/texts";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { appError, internalMutation, orgAction, orgDatabase, orgMutation, orgQuery } from "./functions";
import { areaKey } from "./lib/geo/areas";
import { MAX_ZIP_CENTRES, SEGMENT_MAX_POINTS } from "./lib/geo/limits";
import { acceptUpload, attachFile, issueUploadUrl } from "./model/files";
import { displayName } from "./model/orgs";
import { audit, fieldChanges } from "./model/audit";
import { startLayerSync } from "./model/districts";
import { placeAddress, startGeocodeRun } from "./model/geocode";
import {
  BOUNDARIES_PER_BATCH,
  BOUNDARY_MAX_TEXT,
  BOUNDARY_TEXT_PER_BATCH,
  LAYER_NAME_MAX,
  SEGMENTS_PER_BATCH,
  checkBBox,
  deleteStep as deleteLayerStep,
  finishLayer,
  loadLayer,
  loadingLayer,
  readyLayer,
  startDeleting,
} from "./model/mapData";
import { geoTables, vBBox, vGeocodeQuality, vLayerKind, vTigerLayer } from "./tables/geo";
import { vEditState, vFieldEdit } from "./tables/collab";
import { loadEditState, markEdited, mergeEdits, withEdits } from "./model/collab";

const layerRow = geoTables.mapLayers.validator;
const segmentFields = geoTables.streetSegments.validator.omit("orgId", "layerId", "zip", "lo");
const boundaryFields = geoTables.boundaries.validator.pick("name", "code", "bbox", "geometry");

const vLayerView = layerRow
  .pick(
    "kind",
    "tigerLayer",
    "name",
    "fileName",
    "nameField",
    "status",
    "size",
    "stored",
    "features",
    "addressable",
    "bbox",
    "createdByName",
    "createdAt",
  )
  .extend({ id: v.id("mapLayers"), url: v.union(v.string(), v.null()) });

const TILE_URL_MAX = 500;
const ATTRIBUTION_MAX = 300;

/** The organisation's layers (newest first) and tile source: what every map draws. */
export const overview = orgQuery(null)({
  args: {},
  returns: v.object({
    layers: v.array(vLayerView),
    tiles: v.union(v.object({ url: v.string(), attribution: v.string() }), v.null()),
  }),
  handler: async (ctx) => {
    const layers = await ctx.db
      .query("mapLayers")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(100);
    const settings = await ctx.db
      .query("mapSettings")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .unique();
    return {
      layers: await Promise.all(
        layers
          .filter((l) => l.status !== "deleting")
          .map(async (l) => ({
            id: l._id,
            kind: l.kind,
            tigerLayer: l.tigerLayer,
            name: l.name,
            fileName: l.fileName,
            nameField: l.nameField,
            status: l.status,
            size: l.size,
            stored: l.stored,
            features: l.features,
            addressable: l.addressable,
            bbox: l.bbox,
            createdByName: l.createdByName,
            createdAt: l.createdAt,
            url: l.status === "ready" && l.storageId ? await ctx.storage.getUrl(l.storageId) : null,
          })),
      ),
      tiles: settings && settings.tileUrl ? { url: settings.tileUrl, attribution: settings.tileAttribution } : null,
    };
  },
});

export const generateUploadUrl = orgAction("organization.manage")({
  args: {},
  returns: v.string(),
  handler: async (ctx): Promise<string> => await issueUploadUrl(ctx, ctx.viewer),
});

const vNewLayer = {
  storageId: v.id("_storage"),
  kind: vLayerKind,
  tigerLayer: v.union(vTigerLayer, v.null()),
  name: v.string(),
  fileName: v.string(),
  nameField: v.union(v.string(), v.null()),
  features: v.number(),
  addressable: v.number(),
  bbox: v.union(vBBox, v.null()),
  replaces: v.union(v.id("mapLayers"), v.null()),
  zipCentres: v.optional(v.array(v.object({ zip: v.string(), lat: v.number(), lng: v.number() }))),
};

/** Hands in the uploaded drawing copy (its bytes must be GeoJSON, or PMTiles for a basemap) and opens the layer. */
export const createLayer = orgAction("organization.manage")({
  args: vNewLayer,
  returns: v.id("mapLayers"),
  handler: async (ctx, args): Promise<Id<"mapLayers">> => {
    await acceptUpload(ctx, ctx.viewer, args.storageId, args.kind === "basemap" ? "basemap" : "mapLayer");
    return await ctx.runMutation(internal.mapData.openLayer, {
      ...args,
      userId: ctx.viewer.userId,
      orgId: ctx.viewer.orgId,
    });
  },
});

export const openLayer = internalMutation({
  args: { ...vNewLayer, userId: v.id("users"), orgId: v.id("organizations") },
  returns: v.id("mapLayers"),
  handler: async (ctx, a) => {
    const name = a.name.trim().slice(0, LAYER_NAME_MAX) || a.fileName.slice(0, LAYER_NAME_MAX);
    if (!Number.isInteger(a.features) || a.features < 0 || a.features > 5_000_000)
      throw appError("VALIDATION_ERROR", "The layer's feature count is not valid.", "Map data");
    if (!Number.isInteger(a.addressable) || a.addressable < 0 || a.addressable > a.features)
      throw appError("VALIDATION_ERROR", "The layer's feature count is not valid.", "Map data");
    if (a.kind === "basemap" ? a.features !== 0 : a.features === 0)
      throw appError("VALIDATION_ERROR", TEXTS.mapData.noFeatures, "Map data");
    if (a.bbox) checkBBox(a.bbox);
    const zips = a.kind === "streets" ? (a.zipCentres ?? []) : [];
    if (
      zips.length > MAX_ZIP_CENTRES ||
      zips.some((z) => !/^\d{5}$/.test(z.zip) || Math.abs(z.lat) > 90 || Math.abs(z.lng) > 180)
    )
      throw appError("VALIDATION_ERROR", "The layer's ZIP codes are not valid.", "Map data");
    if (a.kind === "boundaries" && !a.nameField)
      throw appError("VALIDATION_ERROR", "Choose the field that holds each area's name.", "Map data");
    const user = await ctx.db.get("users", a.userId);
    const db = orgDatabase(ctx.db, a.orgId);
    if (a.replaces) {
      const old = await db.get("mapLayers", a.replaces);
      if (!old || old.kind !== a.kind)
        throw appError("NOT_FOUND", "The layer to replace no longer exists.", "Map data");
    }
    const { size } = await attachFile(db, a.storageId, a.kind === "basemap" ? "basemap" : "mapLayer");
    const now = Date.now();
    const id = await db.insert("mapLayers", {
      orgId: a.orgId,
      kind: a.kind,
      tigerLayer: a.kind === "boundaries" ? (a.tigerLayer ?? "custom") : a.tigerLayer,
      name,
      fileName: a.fileName.slice(0, LAYER_NAME_MAX),
      nameField: a.nameField,
      status: "loading",
      storageId: a.storageId,
      size,
      stored: 0,
      features: a.kind === "boundaries" || a.kind === "streets" ? a.features : 0,
      addressable: a.addressable,
      bbox: a.bbox,
      zipCentres: zips,
      replaces: a.replaces,
      createdBy: a.userId,
      createdByName: displayName(user),
      createdAt: now,
      updatedAt: now,
    });
    if (a.kind === "basemap") await finishLayer({ ...ctx, db }, (await db.get("mapLayers", id))!);
    return id;
  },
});

/** A batch of a streets layer's segments (at most SEGMENTS_PER_BATCH), in file order. */
export const appendSegments = orgMutation("organization.manage")({
  args: { layerId: v.id("mapLayers"), segments: v.array(segmentFields) },
  returns: v.object({ stored: v.number() }),
  handler: async (ctx, { layerId, segments }) => {
    const layer = await loadingLayer(ctx.db, layerId, "streets");
    if (segments.length > SEGMENTS_PER_BATCH)
      throw appError("VALIDATION_ERROR", `At most ${SEGMENTS_PER_BATCH} segments per batch.`, "Map data");
    if (layer.stored + segments.length > layer.features)
      throw appError("VALIDATION_ERROR", "More segments arrived than the file holds.", "Map data");
    for (const s of segments) {
      if (s.coords.length < 4 || s.coords.length % 2 !== 0 || s.coords.length > 2 * SEGMENT_MAX_POINTS)
        throw appError("VALIDATION_ERROR", "A street segment must have 2 to 4,000 points.", "Map data");
      checkBBox(s.bbox);
      const ends = [s.lFrom, s.lTo, s.rFrom, s.rTo].filter((n): n is number => n !== undefined);
      await ctx.db.insert("streetSegments", {
        ...s,
        orgId: layer.orgId,
        layerId,
        zip: s.zipL ?? s.zipR ?? "",
        lo: ends.length ? Math.min(...ends) : 0,
      });
    }
    const stored = layer.stored + segments.length;
    await ctx.db.patch("mapLayers", layerId, { stored, updatedAt: Date.now() });
    return { stored };
  },
});

/** A batch of a boundaries layer's polygons (at most BOUNDARIES_PER_BATCH, 4 MB of geometry). */
export const appendBoundaries = orgMutation("organization.manage")({
  args: { layerId: v.id("mapLayers"), boundaries: v.array(boundaryFields) },
  returns: v.object({ stored: v.number() }),
  handler: async (ctx, { layerId, boundaries }) => {
    const layer = await loadingLayer(ctx.db, layerId, "boundaries");
    if (boundaries.length > BOUNDARIES_PER_BATCH)
      throw appError("VALIDATION_ERROR", `At most ${BOUNDARIES_PER_BATCH} areas per batch.`, "Map data");
    if (boundaries.reduce((n, b) => n + b.geometry.length, 0) > BOUNDARY_TEXT_PER_BATCH)
      throw appError("VALIDATION_ERROR", "This batch of areas is too large.", "Map data");
    if (layer.stored + boundaries.length > layer.features)
      throw appError("VALIDATION_ERROR", "More areas arrived than the file holds.", "Map data");
    for (const b of boundaries) {
      if (b.geometry.length > BOUNDARY_MAX_TEXT)
        throw appError("VALIDATION_ERROR", `The area "${b.name.slice(0, 80)}" is too detailed to store.`, "Map data");
      let geometry: { type?: unknown };
      try {
        geometry = JSON.parse(b.geometry) as { type?: unknown };
      } catch {
        throw appError("VALIDATION_ERROR", "An area's outline is not valid GeoJSON.", "Map data");
      }
      if (geometry.type !== "Polygon" && geometry.type !== "MultiPolygon")
        throw appError("VALIDATION_ERROR", "An area's outline is not a polygon.", "Map data");
      checkBBox(b.bbox);
      await ctx.db.insert("boundaries", {
        ...b,
        name: b.name.slice(0, LAYER_NAME_MAX),
        key: areaKey(b.name.slice(0, LAYER_NAME_MAX)),
        code: b.code?.slice(0, LAYER_NAME_MAX) ?? null,
        orgId: layer.orgId,
        layerId,
        layer: layer.tigerLayer ?? "custom",
      });
    }
    const stored = layer.stored + boundaries.length;
    await ctx.db.patch("mapLayers", layerId, { stored, updatedAt: Date.now() });
    return { stored };
  },
});

/** Every row arrived: the layer becomes the organisation's; a streets layer places the voters anew. */
export const finish = orgMutation("organization.manage")({
  args: { layerId: v.id("mapLayers") },
  returns: v.null(),
  handler: async (ctx, { layerId }) => {
    const layer = await loadLayer(ctx.db, layerId);
    if (layer.status === "ready") return null;
    await finishLayer(ctx, layer);
    if (layer.kind === "streets") await startGeocodeRun(ctx, layer.orgId, "a new streets layer", layerId);
    // a boundaries layer's areas become districts, and the voters are assigned to them
    if (layer.kind === "boundaries") await startLayerSync(ctx, layer);
    await audit(ctx, ctx.viewer, {
      action: "mapData.update",
      target: { table: "mapLayers", id: layerId, label: layer.name },
      summary: `Added the ${layer.kind} layer ${layer.name} (${layer.fileName}, ${layer.stored} features).`,
    });
    return null;
  },
});

/** Deletes a layer (and, in steps, its rows and file). */
export const remove = orgMutation("organization.manage")({
  args: { layerId: v.id("mapLayers") },
  returns: v.null(),
  handler: async (ctx, { layerId }) => {
    const layer = await loadLayer(ctx.db, layerId);
    await startDeleting(ctx, layer);
    await audit(ctx, ctx.viewer, {
      action: "mapData.delete",
      target: { table: "mapLayers", id: layerId, label: layer.name },
      summary: `Deleted the ${layer.kind} layer ${layer.name}.`,
    });
    return null;
  },
});

export const deleteStep = internalMutation({
  args: { layerId: v.id("mapLayers") },
  returns: v.null(),
  handler: async (ctx, { layerId }) => {
    await deleteLayerStep(ctx, layerId);
    return null;
  },
});

/** The tile source as the collaboration layer names it (one settings row per organisation). */
const TILE_FIELDS: Record<string, string> = { tileUrl: "tile URL", tileAttribution: "attribution" };
const tileSettingsKey = (orgId: Id<"organizations">) => `mapSettings:${orgId}`;

/**
 * The raster tile source every map of the organisation uses (empty URL: none). A save names, per
 * field, the value the admin started from: two admins saving at once keep each other's changes to
 * the other field and the second is refused, naming the first, on the same field (model/collab.ts).
 */
export const setTiles = orgMutation("organization.manage")({
  args: { edits: v.array(vFieldEdit) },
  returns: v.null(),
  handler: async (ctx, { edits }) => {
    const existing = await ctx.db
      .query("mapSettings")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .unique();
    const current = { tileUrl: existing?.tileUrl ?? "", tileAttribution: existing?.tileAttribution ?? "" };
    const key = tileSettingsKey(ctx.viewer.orgId);
    const apply = await mergeEdits(ctx, ctx.viewer, key, current, edits, {
      title: "The tile source",
      editable: (f) => Object.hasOwn(TILE_FIELDS, f),
      label: (f) => TILE_FIELDS[f] ?? f,
    });
    if (apply.length === 0) return null;
    if (apply.some((e) => typeof e.value !== "string" && e.value !== null)) throw appError("VALIDATION_ERROR");
    const next = withEdits(
      current,
      apply.map((e) => ({ ...e, value: typeof e.value === "string" ? e.value.trim() : "" })),
    );
    const url = next.tileUrl;
    const attribution = next.tileAttribution;
    if (url.length > TILE_URL_MAX || attribution.length > ATTRIBUTION_MAX)
      throw appError("VALIDATION_ERROR", "The tile URL or attribution is too long.", "Map data");
    if (url) {
      let parsed: URL | null = null;
      try {
        parsed = new URL(url.replace(/\{[a-z]\}/g, "0"));
      } catch {
        parsed = null;
      }
      if (
        !parsed ||
        (parsed.protocol !== "https:" && parsed.protocol !== "http:") ||
        !/\{z\}/.test(url) ||
        !/\{x\}/.test(url) ||
        !/\{y\}/.test(url)
      )
        throw appError(
          "VALIDATION_ERROR",
          "Enter a tile URL with {z}, {x} and {y}, such as https://tiles.example.org/{z}/{x}/{y}.png.",
          "Map data",
        );
      if (!attribution) throw appError("VALIDATION_ERROR", "Please enter the tile provider's attribution.", "Map data");
    }
    const row = {
      tileUrl: url,
      // an attribution without a source is kept as typed: the admin may be about to enter the URL
      tileAttribution: attribution,
      updatedAt: Date.now(),
      updatedBy: ctx.viewer.userId,
    };
    if (existing) await ctx.db.patch("mapSettings", existing._id, row);
    else await ctx.db.insert("mapSettings", { orgId: ctx.viewer.orgId, ...row });
    await audit(ctx, ctx.viewer, {
      action: "mapData.update",
      target: { table: "mapSettings", id: existing?._id ?? ctx.viewer.orgId, label: "Tile source" },
      summary: "Changed the map tile source.",
      changes: fieldChanges(current, row, ["tileUrl", "tileAttribution"]),
    });
    await markEdited(
      ctx,
      ctx.viewer,
      key,
      apply.map((e) => e.field),
    );
    return null;
  },
});

/** The tile source as saved (empty strings: none) and who last saved each of its fields. */
export const tileSettings = orgQuery("organization.manage")({
  args: {},
  returns: v.object({ tileUrl: v.string(), tileAttribution: v.string(), editState: vEditState }),
  handler: async (ctx) => {
    const row = await ctx.db
      .query("mapSettings")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .unique();
    return {
      tileUrl: row?.tileUrl ?? "",
      tileAttribution: row?.tileAttribution ?? "",
      editState: await loadEditState(ctx, tileSettingsKey(ctx.viewer.orgId)),
    };
  },
});

/** Where an address is on the organisation's streets (the signs form places a sign by it). */
export const place = orgQuery(null)({
  args: { address: v.string() },
  returns: v.object({
    quality: vGeocodeQuality,
    lat: v.union(v.number(), v.null()),
    lng: v.union(v.number(), v.null()),
    street: v.union(v.string(), v.null()),
  }),
  handler: async (ctx, { address }) => {
    const failed = { quality: "failed" as const, lat: null, lng: null, street: null };
    if (address.length > 300) return failed;
    const streets = await readyLayer(ctx.db, ctx.viewer.orgId, "streets");
    if (!streets) return failed;
    const { result: r, candidates } = await placeAddress(ctx.db, streets, address, new Map());
    if (r.quality === "failed" || r.quality === "zip centroid") return failed;
    return { quality: r.quality, lat: r.lat, lng: r.lng, street: candidates[r.segment].name ?? null };
  },
});
