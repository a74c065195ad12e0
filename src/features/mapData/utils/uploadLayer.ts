/**
 * A parsed layer's upload, in the order the server expects (convex/mapData.ts): the drawing copy
 * to file storage, the layer record ("loading"), its rows in batches within Convex's limits, then
 * `finish` makes it the organisation's. A refusal stops the upload where it is: the layer stays
 * "loading" in the list, and the admin deletes it or uploads again.
 */
import type { Id } from "@convex/_generated/dataModel";
import type { BoundaryRow, SegmentRow } from "@convex/lib/geo/rows";
import type { ParsedLayer } from "../worker/parseLayer.worker";
import {
  BOUNDARIES_PER_BATCH,
  BOUNDARY_TEXT_PER_BATCH,
  GEOJSON_TYPE,
  PMTILES_TYPE,
  SEGMENTS_PER_BATCH,
} from "@convex/lib/geo/limits";

type LayerId = Id<"mapLayers">;

/** The server calls an upload makes (the hook passes Convex's; tests pass fakes). */
export type UploadCalls = {
  generateUploadUrl(args: Record<string, never>): Promise<string>;
  createLayer(args: {
    storageId: Id<"_storage">;
    kind: ParsedLayer["kind"];
    tigerLayer: ParsedLayer["tigerLayer"];
    name: string;
    fileName: string;
    nameField: string | null;
    features: number;
    addressable: number;
    bbox: number[] | null;
    replaces: LayerId | null;
    zipCentres?: { zip: string; lat: number; lng: number }[];
  }): Promise<LayerId>;
  appendSegments(args: { layerId: LayerId; segments: SegmentRow[] }): Promise<{ stored: number }>;
  appendBoundaries(args: { layerId: LayerId; boundaries: BoundaryRow[] }): Promise<{ stored: number }>;
  finish(args: { layerId: LayerId }): Promise<null>;
  /** POSTs the file to the upload URL (window.fetch) */
  fetch: typeof fetch;
};

export type UploadProgress = { stage: "file" | "rows" | "finishing"; stored: number; features: number };

const STORAGE_FAILED = "The file could not be stored. Please try again.";

/** Boundary rows in batches of at most BOUNDARIES_PER_BATCH areas and BOUNDARY_TEXT_PER_BATCH of outline text. */
export function boundaryBatches(rows: BoundaryRow[]): BoundaryRow[][] {
  const batches: BoundaryRow[][] = [];
  let batch: BoundaryRow[] = [];
  let text = 0;
  for (const row of rows) {
    if (
      batch.length &&
      (batch.length >= BOUNDARIES_PER_BATCH || text + row.geometry.length > BOUNDARY_TEXT_PER_BATCH)
    ) {
      batches.push(batch);
      batch = [];
      text = 0;
    }
    batch.push(row);
    text += row.geometry.length;
  }
  if (batch.length) batches.push(batch);
  return batches;
}

function segmentBatches(rows: SegmentRow[]): SegmentRow[][] {
  const batches: SegmentRow[][] = [];
  for (let i = 0; i < rows.length; i += SEGMENTS_PER_BATCH) batches.push(rows.slice(i, i + SEGMENTS_PER_BATCH));
  return batches;
}

/** Uploads `layer` (parsed from `file`); returns the new layer's id. Throws the server's refusal as it came. */
export async function uploadLayer(
  calls: UploadCalls,
  layer: ParsedLayer,
  file: File,
  options: { name: string; replaces: LayerId | null },
  onProgress: (p: UploadProgress) => void,
): Promise<LayerId> {
  const features = layer.features;
  onProgress({ stage: "file", stored: 0, features });
  const url = await calls.generateUploadUrl({});
  const body = layer.drawing === null ? file : new Blob([layer.drawing], { type: GEOJSON_TYPE });
  const type = layer.kind === "basemap" ? PMTILES_TYPE : GEOJSON_TYPE;
  const res = await calls.fetch(url, { method: "POST", headers: { "Content-Type": type }, body });
  if (!res.ok) throw new Error(STORAGE_FAILED);
  const { storageId } = (await res.json()) as { storageId: Id<"_storage"> };
  const layerId = await calls.createLayer({
    storageId,
    kind: layer.kind,
    tigerLayer: layer.tigerLayer,
    name: options.name.trim() || layer.name,
    fileName: layer.fileName,
    nameField: layer.nameField,
    features,
    addressable: layer.addressable,
    bbox: layer.bbox,
    replaces: options.replaces,
    ...(layer.kind === "streets" && layer.zipCentres ? { zipCentres: layer.zipCentres } : {}),
  });
  if (layer.kind === "basemap") return layerId; // ready once handed in
  onProgress({ stage: "rows", stored: 0, features });
  if (layer.kind === "streets") {
    for (const segments of segmentBatches(layer.segments)) {
      const { stored } = await calls.appendSegments({ layerId, segments });
      onProgress({ stage: "rows", stored, features });
    }
  } else {
    for (const boundaries of boundaryBatches(layer.boundaries)) {
      const { stored } = await calls.appendBoundaries({ layerId, boundaries });
      onProgress({ stage: "rows", stored, features });
    }
  }
  onProgress({ stage: "finishing", stored: features, features });
  await calls.finish({ layerId });
  return layerId;
}
