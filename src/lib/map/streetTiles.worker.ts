/**
 * The street tiles worker: holds one streets layer's tile index (streetTiles.ts) off the main
 * thread. It fetches a stored layer itself (parsing a chunked drawing copy chunk by chunk, as
 * tiles need them), cuts tiles on request and hands their typed arrays over without a copy; the
 * map thread only draws.
 *
 *   { id, type: "load", source: FeatureCollection | URL, view? } → { id, type: "load", ok, segments, bbox } | { ok: false, error }
 *   { id, type: "tile", z, x, y }                         → { id, type: "tile", ok, tile: StreetTile | null }
 *
 * A tile asked for while a layer loads waits for it; a later load replaces the layer.
 */
import type { FeatureCollection } from "geojson";
import { bytesInMemory, DRAWING_HEAD_BYTES, openDrawing, type DrawingBytes } from "@convex/lib/geo/drawing";
import { buildStreetIndex, chunkedStreetIndex, type BBox, type StreetIndex, type StreetTile } from "./streetTiles";

/** The tiles a map shows (zoom and tile range): their data is read as soon as the layer opens. */
export type TileView = { z: number; x0: number; y0: number; x1: number; y1: number };

export type StreetWorkerRequest =
  | { id: number; type: "load"; source: FeatureCollection | string; view?: TileView }
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
      const drawing = await openDrawing(...(await storedBytes(fetchLayer, source)));
      // a chunked copy: the overview now, the chunks under the view as tiles ask for them
      if (drawing.chunked) return await chunkedStreetIndex(drawing);
      collection = drawing.collection;
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
        // the chunks under the map's first view start loading now, not when its tiles are asked
        // for (those requests wait behind the page's own start-up work)
        const v = request.view;
        if (v && built.prepare && (v.x1 - v.x0 + 1) * (v.y1 - v.y0 + 1) <= 64)
          for (let x = v.x0; x <= v.x1; x++)
            for (let y = v.y0; y <= v.y1; y++) void built.prepare(v.z, x, y).catch(() => undefined);
        return {
          reply: { id: request.id, type: "load", ok: true, segments: built.segments, bbox: built.bbox },
          transfer: [],
        };
      } catch (e) {
        return { reply: { id: request.id, type: "load", ok: false, error: errorText(e) }, transfer: [] };
      }
    }
    try {
      const built = await index;
      await built?.prepare?.(request.z, request.x, request.y);
      const tile = built?.tile(request.z, request.x, request.y) ?? null;
      const transfer = tile ? [tile.classes.buffer, tile.starts.buffer, tile.coords.buffer] : [];
      return { reply: { id: request.id, type: "tile", ok: true, tile }, transfer };
    } catch (e) {
      return { reply: { id: request.id, type: "tile", ok: false, error: errorText(e) }, transfer: [] };
    }
  };
}

/**
 * A stored file's first DRAWING_HEAD_BYTES (a range request, as Convex's storage serves them) and
 * its reader of further ranges; a server that answers with the whole file is read from memory.
 */
async function storedBytes(fetchLayer: typeof fetch, url: string): Promise<[Uint8Array, DrawingBytes]> {
  const get = async (range?: string) => {
    const res = await fetchLayer(url, range ? { headers: { Range: range } } : undefined);
    if (!res.ok) throw new Error(`The streets layer could not be read (HTTP ${res.status}).`);
    return { partial: res.status === 206, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  const first = await get(`bytes=0-${DRAWING_HEAD_BYTES - 1}`);
  if (!first.partial) return [first.bytes, bytesInMemory(first.bytes)];
  let whole: Promise<Uint8Array> | null = null;
  const readWhole = () => (whole ??= get().then((r) => r.bytes));
  return [
    first.bytes,
    {
      async range(from, to) {
        const r = await get(`bytes=${from}-${to - 1}`);
        return r.partial ? r.bytes : r.bytes.subarray(from, to);
      },
      whole: readWhole,
    },
  ];
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
