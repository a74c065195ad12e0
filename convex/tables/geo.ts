/**
 * Map data per organisation (issue 36, DESIGN.md §6): the layers an admin uploads (TIGER/Line
 * streets and boundaries, GeoJSON, a PMTiles basemap), their street segments and boundary
 * polygons as rows the server queries (geocoding, districts), each voter's place on the map, the
 * runs that geocode the voter file, and the organisation's tile source.
 */
import { defineTable } from "convex/server";
import { v, type Infer } from "convex/values";

export const vLayerKind = v.union(v.literal("streets"), v.literal("boundaries"), v.literal("basemap"));
export const vTigerLayer = v.union(
  v.literal("EDGES"),
  v.literal("ADDRFEAT"),
  v.literal("VTD"),
  v.literal("SLDU"),
  v.literal("SLDL"),
  v.literal("CD"),
  v.literal("COUNTY"),
  v.literal("PLACE"),
  v.literal("custom"),
);
export const vLayerStatus = v.union(v.literal("loading"), v.literal("ready"), v.literal("deleting"));
export const vBBox = v.array(v.number());

export const GEOCODE_QUALITIES = ["exact range", "interpolated", "street only", "zip centroid", "failed"] as const;
export const vGeocodeQuality = v.union(
  v.literal("exact range"),
  v.literal("interpolated"),
  v.literal("street only"),
  v.literal("zip centroid"),
  v.literal("failed"),
);
export type GeocodeQualityValue = Infer<typeof vGeocodeQuality>;

/** Voters per geocoding quality. */
export const vQualityCounts = v.object({
  exact: v.number(),
  interpolated: v.number(),
  streetOnly: v.number(),
  zipCentroid: v.number(),
  failed: v.number(),
});
export type QualityCounts = Infer<typeof vQualityCounts>;

export const geoTables = {
  mapLayers: defineTable({
    orgId: v.id("organizations"),
    kind: vLayerKind,
    /** the TIGER/Line layer the fields showed (boundaries of another source: "custom") */
    tigerLayer: v.union(vTigerLayer, v.null()),
    /** what the admin calls it (the file's name by default) */
    name: v.string(),
    fileName: v.string(),
    /** the attribute holding each feature's name (boundaries) */
    nameField: v.union(v.string(), v.null()),
    status: vLayerStatus,
    /** the drawing copy (GeoJSON, or the PMTiles file) in file storage */
    storageId: v.union(v.id("_storage"), v.null()),
    size: v.number(),
    /** features stored as rows so far, and how many the file holds */
    stored: v.number(),
    features: v.number(),
    /** street segments with a name and an address range */
    addressable: v.number(),
    bbox: v.union(vBBox, v.null()),
    /** streets: the centre of each ZIP's segments (a voter whose street is not on the map is placed there) */
    zipCentres: v.optional(v.array(v.object({ zip: v.string(), lat: v.number(), lng: v.number() }))),
    /** the layer this one replaces once it is ready */
    replaces: v.union(v.id("mapLayers"), v.null()),
    createdBy: v.id("users"),
    createdByName: v.string(),
    createdAt: v.number(),
    updatedAt: v.number(),
  })
    // by_org lists newest first (the Map data screen), by_org_kind finds the layer of a kind
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_org", ["orgId"])
    .index("by_org_kind", ["orgId", "kind"]),

  /** One street segment of a streets layer: the geocoder's rows, fetched by street key. */
  streetSegments: defineTable({
    orgId: v.id("organizations"),
    layerId: v.id("mapLayers"),
    name: v.string(),
    key: v.string(),
    looseKey: v.string(),
    tlid: v.optional(v.number()),
    mtfcc: v.optional(v.string()),
    lFrom: v.optional(v.number()),
    lTo: v.optional(v.number()),
    rFrom: v.optional(v.number()),
    rTo: v.optional(v.number()),
    parityL: v.optional(v.union(v.literal("O"), v.literal("E"), v.literal("B"))),
    parityR: v.optional(v.union(v.literal("O"), v.literal("E"), v.literal("B"))),
    zipL: v.optional(v.string()),
    zipR: v.optional(v.string()),
    /** lng, lat, lng, lat, … */
    coords: v.array(v.number()),
    bbox: vBBox,
    /** set by the server: the segment's ZIP (left, else right) and lowest house number, so a house's
     * segment is found in one short index range (model/geocode.ts) */
    zip: v.string(),
    lo: v.number(),
  })
    .index("by_org_key_zip_lo", ["orgId", "key", "zip", "lo"])
    .index("by_org_loose", ["orgId", "looseKey"])
    .index("by_layer", ["layerId"]),

  /** One polygon of a boundaries layer (precinct, district, county, place). */
  boundaries: defineTable({
    orgId: v.id("organizations"),
    layerId: v.id("mapLayers"),
    layer: vTigerLayer,
    name: v.string(),
    /** lib/geo/areas.ts areaKey of the name: an area found by what people call it */
    key: v.string(),
    code: v.union(v.string(), v.null()),
    bbox: vBBox,
    /** the GeoJSON geometry as text (a county's outline can pass Convex's 8,192 array elements) */
    geometry: v.string(),
  })
    .index("by_org_layer_key", ["orgId", "layer", "key"])
    .index("by_layer", ["layerId"]),

  /** Where a voter lives on the map, from the offline geocoder (or the optional provider). */
  voterPlaces: defineTable({
    orgId: v.id("organizations"),
    voterId: v.id("voters"),
    /** the address it was placed from (a changed address is placed again) */
    address: v.string(),
    quality: vGeocodeQuality,
    lat: v.union(v.number(), v.null()),
    lng: v.union(v.number(), v.null()),
    /** the streets layer it was placed on */
    layerId: v.union(v.id("mapLayers"), v.null()),
    at: v.number(),
    /** the voter's _creationTime: a run's page of voters finds its places in one index range */
    voterAt: v.number(),
  })
    .index("by_voter", ["voterId"])
    .index("by_org_voter_at", ["orgId", "voterAt"])
    .index("by_org_quality", ["orgId", "quality"]),

  /** A run that geocodes the organisation's voters, a batch per transaction (a chain). */
  geocodeRuns: defineTable({
    orgId: v.id("organizations"),
    status: v.union(v.literal("running"), v.literal("done"), v.literal("cancelled")),
    /** why it runs: a new streets layer, an import, or a member's request */
    reason: v.string(),
    layerId: v.union(v.id("mapLayers"), v.null()),
    cursor: v.union(v.string(), v.null()),
    processed: v.number(),
    /** voters to go through when it started */
    total: v.number(),
    counts: vQualityCounts,
    startedAt: v.number(),
    finishedAt: v.union(v.number(), v.null()),
  }).index("by_org", ["orgId"]),

  /** The organisation's map settings: a raster tile source with its attribution. */
  mapSettings: defineTable({
    orgId: v.id("organizations"),
    tileUrl: v.string(),
    tileAttribution: v.string(),
    updatedAt: v.number(),
    updatedBy: v.id("users"),
  }).index("by_org", ["orgId"]),
};
