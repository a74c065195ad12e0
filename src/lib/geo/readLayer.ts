/**
 * Reading a map-data file the user brings (issue 36, DESIGN.md §6), in the browser (a Web Worker):
 * a TIGER/Line shapefile zip (shpjs: .shp geometry, .dbf attributes, reprojected to longitude/latitude
 * when its .prj says it is projected) or a GeoJSON file, into layers of features and their field names
 * for `detectLayer` (convex/lib/geo/tiger.ts). A wrong or partial file is refused with a message the
 * user can act on, before anything is stored. shpjs stays here: convex/ never bundles it.
 */
import { unzipSync } from "fflate";
import shp from "shpjs";
import type { LayerFeature, Refusal } from "@convex/lib/geo/tiger";

export type ReadLayer = { fileName: string; fields: string[]; features: LayerFeature[] };

const WHOLE_ZIP =
  "Upload the whole zip as downloaded from the Census Bureau (it holds .shp, .shx, .dbf and .prj files).";

function fieldsOf(features: LayerFeature[]): string[] {
  const fields = new Set<string>();
  for (const f of features) for (const k of Object.keys(f.properties ?? {})) fields.add(k);
  return [...fields];
}

/** The shapefile names in a zip (without extension), or why the zip cannot be read as shapefiles. */
function shapefilesIn(bytes: Uint8Array): string[] | Refusal {
  const names: string[] = [];
  try {
    // list the entries only: the filter declines every file, so nothing is inflated
    unzipSync(bytes, {
      filter: (file) => {
        if (!file.name.includes("__MACOSX")) names.push(file.name);
        return false;
      },
    });
  } catch {
    return { error: `This file is not a zip archive. ${WHOLE_ZIP}` };
  }
  const byExtension = (ext: string) =>
    names.filter((n) => n.toLowerCase().endsWith(ext)).map((n) => n.slice(0, -ext.length));
  const shps = byExtension(".shp");
  const dbfs = new Set(byExtension(".dbf").map((n) => n.toLowerCase()));
  if (shps.length === 0) {
    return dbfs.size
      ? { error: `This zip has no .shp file (the shapes): only their attributes (.dbf). ${WHOLE_ZIP}` }
      : { error: `This zip holds no shapefile (.shp and .dbf files). ${WHOLE_ZIP}` };
  }
  const withoutDbf = shps.filter((n) => !dbfs.has(n.toLowerCase()));
  if (withoutDbf.length) {
    const shown = withoutDbf.map((n) => `${n.split("/").pop()}.shp`).join(", ");
    return {
      error: `${shown} has no .dbf file beside it (the attributes: names, codes, address ranges). ${WHOLE_ZIP}`,
    };
  }
  return shps;
}

/** A shapefile zip → its layers (one per .shp), or a refusal. */
export async function readShapefileZip(data: ArrayBuffer | Uint8Array): Promise<ReadLayer[] | Refusal> {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const found = shapefilesIn(bytes);
  if (!Array.isArray(found)) return found;
  let parsed;
  try {
    parsed = await shp(bytes);
  } catch (e) {
    return { error: `This shapefile could not be read (${e instanceof Error ? e.message : String(e)}). ${WHOLE_ZIP}` };
  }
  const collections = Array.isArray(parsed) ? parsed : [parsed];
  return collections.map((c, i) => {
    const features = c.features as LayerFeature[];
    return {
      fileName: (c.fileName ?? found[i] ?? "layer").split("/").pop() ?? "layer",
      fields: fieldsOf(features),
      features,
    };
  });
}

/** A GeoJSON file's text → its one layer (a FeatureCollection, or a single Feature), or a refusal. */
export function readGeoJson(fileName: string, textContent: string): ReadLayer | Refusal {
  let value: unknown;
  try {
    value = JSON.parse(textContent);
  } catch {
    return { error: "This file is not GeoJSON: it is not valid JSON." };
  }
  const v = value as { type?: string; features?: unknown; geometry?: unknown };
  const features =
    v.type === "FeatureCollection" && Array.isArray(v.features)
      ? (v.features as LayerFeature[])
      : v.type === "Feature"
        ? [v as LayerFeature]
        : null;
  if (!features) return { error: "This file is not GeoJSON: it holds no FeatureCollection or Feature." };
  return { fileName: fileName.replace(/\.(geo)?json$/i, ""), fields: fieldsOf(features), features };
}
