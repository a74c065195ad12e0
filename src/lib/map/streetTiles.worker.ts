/**
 * The street tiles worker: holds one streets layer's tile index (streetTiles.ts) off the main
 * thread. It fetches and parses a stored layer itself, cuts tiles on request and hands their typed
 * arrays over without a copy; the map thread only draws.
 *
 *   { id, type: "load", source: FeatureCollection | URL } → { id, type: "load", ok, segments, bbox } | { ok: false, error }
 *   { id, type: "tile", z, x, y }                         → { id, type: "tile", ok, tile: StreetTile | null }
 *
 * A tile asked for while a layer loads waits for it; a later load replaces the layer.
 */
import type { FeatureCollection } from "geojson";
import { buildStreetIndex, type BBox, type StreetIndex, type StreetTile } from "./streetTiles";

export type StreetWorkerRequest =
  | { id: number; type: "load"; source: FeatureCollection | string }
  | { id: number; type: "tile"; z: number; x: number; y: number };

export type StreetWorkerReply =
  | { id: number; type: "load"; ok: true; segments: number; bbox: BBox | null }
  | { id: number; type: "tile"; ok: true; tile: StreetTile | null }
  | { id: number; type: "load" | "tile"; ok: false; error: string };

type StreetWorkerHandler = (
  request: StreetWorkerRequest,
) => Promise<{ reply: StreetWorkerReply; transfer: Transferable[] }>;

/** The worker's message handler, on its own so that tests call it without a Worker. */
export function createStreetTileHandler(fetchLayer: typeof fetch = (...args) => fetch(...args)): StreetWorkerHandler {
  let index: Promise<StreetIndex | null> = Promise.resolve(null);

  const load = async (source: FeatureCollection | string): Promise<StreetIndex> => {
    let collection: unknown = source;
    if (typeof source === "string") {
      const res = await fetchLayer(source);
      if (!res.ok) throw new Error(`The streets layer could not be read (HTTP ${res.status}).`);
      collection = await res.json();
    }
    if (!isFeatureCollection(collection)) throw new Error("The streets layer is not a GeoJSON FeatureCollection.");
    return buildStreetIndex(collection);
  };

  return async (request) => {
    if (request.type === "load") {
      const next = load(request.source);
      // tiles asked for meanwhile wait for this layer; a failed load leaves no layer
      index = next.catch(() => null);
      try {
        const built = await next;
        return {
          reply: { id: request.id, type: "load", ok: true, segments: built.segments, bbox: built.bbox },
          transfer: [],
        };
      } catch (e) {
        return { reply: { id: request.id, type: "load", ok: false, error: errorText(e) }, transfer: [] };
      }
    }
    try {
      const tile = (await index)?.tile(request.z, request.x, request.y) ?? null;
      const transfer = tile ? [tile.classes.buffer, tile.starts.buffer, tile.coords.buffer] : [];
      return { reply: { id: request.id, type: "tile", ok: true, tile }, transfer };
    } catch (e) {
      return { reply: { id: request.id, type: "tile", ok: false, error: errorText(e) }, transfer: [] };
    }
  };
}

function isFeatureCollection(v: unknown): v is FeatureCollection {
  return (
    typeof v === "object" &&
    v !== null &&
    (v as { type?: unknown }).type === "FeatureCollection" &&
    Array.isArray((v as { features?: unknown }).features)
  );
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// In a worker (not when a test imports this module): answer the page's messages.
type WorkerScope = {
  onmessage: ((e: MessageEvent<StreetWorkerRequest>) => void) | null;
  postMessage(message: StreetWorkerReply, transfer: Transferable[]): void;
};
const scope = globalThis as unknown as Partial<WorkerScope> & { WorkerGlobalScope?: unknown; document?: unknown };
if (typeof scope.WorkerGlobalScope !== "undefined" && typeof scope.document === "undefined") {
  const handle = createStreetTileHandler();
  const worker = scope as WorkerScope;
  worker.onmessage = (e) => {
    void handle(e.data).then(({ reply, transfer }) => worker.postMessage(reply, transfer));
  };
}
