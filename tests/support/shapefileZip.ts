/**
 * A synthetic county's layers as TIGER-style shapefile zips (syntheticCounty.ts), written with
 * @mapbox/shp-write's `write` (shp, shx, dbf) and packed with fflate: its `zip` puts every
 * LineString of a collection into one multi-part record. Node only (shp-write's download helper
 * needs a browser-like global the edge runtime lacks).
 */
import { write } from "@mapbox/shp-write";
import { strToU8, zipSync } from "fflate";
import type { Collection, LineFeature, PolygonFeature } from "./syntheticCounty";

/** TIGER/Line's .prj: NAD83 longitude/latitude. */
export const NAD83_PRJ =
  'GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983",SPHEROID["GRS_1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["Degree",0.017453292519943295]]';

type ZipOptions = {
  /** the .prj text (default NAD83); null leaves it out */
  prj?: string | null;
  /** leave these parts out, to make a broken upload */
  without?: ("shp" | "shx" | "dbf")[];
};

/** One layer as a TIGER-style shapefile zip (`<baseName>.shp/.shx/.dbf/.prj/.cpg`). */
export function shapefileZip(
  collection: Collection<LineFeature | PolygonFeature>,
  baseName: string,
  options: ZipOptions = {},
): Uint8Array {
  const features = collection.features;
  const polygons = features[0]?.geometry.type === "Polygon";
  const rows = features.map((f) => f.properties);
  const geometries = features.map((f) =>
    f.geometry.type === "Polygon" ? f.geometry.coordinates : [f.geometry.coordinates],
  );
  let files: { shp: DataView; shx: DataView; dbf: DataView } | undefined;
  write(rows, polygons ? "POLYGON" : "POLYLINE", geometries, (err, written) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
    files = written;
  });
  if (!files) throw new Error("shp-write returned nothing");
  const bytes = (view: DataView) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const entries: Record<string, Uint8Array> = {};
  const without = new Set(options.without ?? []);
  for (const part of ["shp", "shx", "dbf"] as const)
    if (!without.has(part)) entries[`${baseName}.${part}`] = bytes(files[part]);
  const prj = options.prj === undefined ? NAD83_PRJ : options.prj;
  if (prj !== null) entries[`${baseName}.prj`] = strToU8(prj);
  entries[`${baseName}.cpg`] = strToU8("UTF-8");
  return zipSync(entries);
}
