/**
 * The limits of a map layer's upload, one copy for the browser (which splits its batches by them
 * and refuses what the server would) and the server (which enforces them): convex/model/mapData.ts,
 * convex/model/files.ts UPLOAD_RULES.
 */

/** Street segments per appendSegments call. */
export const SEGMENTS_PER_BATCH = 500;
/** Boundary polygons per appendBoundaries call, and their outlines' text per call. */
export const BOUNDARIES_PER_BATCH = 50;
export const BOUNDARY_TEXT_PER_BATCH = 4 * 1024 * 1024;
/** One polygon's outline as GeoJSON text (a Convex document stops at 1 MiB). */
export const BOUNDARY_MAX_TEXT = 900 * 1024;

/** A shapefile zip or GeoJSON file (and the drawing copy written from it). */
export const LAYER_MAX_BYTES = 300 * 1024 * 1024;
/** A PMTiles basemap. */
export const BASEMAP_MAX_BYTES = 1024 * 1024 * 1024;

export const GEOJSON_TYPE = "application/geo+json";
export const PMTILES_TYPE = "application/vnd.pmtiles";

/** Points per stored street segment (a Convex array holds 8,192 values: two per point). */
export const SEGMENT_MAX_POINTS = 4_000;
/** ZIP centres per streets layer (a county has dozens; a state a couple of thousand). */
export const MAX_ZIP_CENTRES = 5_000;
