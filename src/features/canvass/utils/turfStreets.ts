/**
 * The turf's streets, kept for offline use when a list is opened. The map's street tiles worker
 * (lib/map/streetTiles.worker.ts) reads the organisation's streets file by byte ranges: its first
 * DRAWING_HEAD_BYTES (the chunk index and usually the overview of major roads), then the chunk of
 * each tile of the chunk zoom (convex/lib/geo/drawing.ts) it shows. This reads the same ranges, with the same Range headers,
 * for every chunk under the turf (and a margin around it, what the map shows beside the turf), and
 * puts each response in the service worker's cache of stored files under the key the service
 * worker looks up (offlineCaches.ts). Offline, the worker's requests are then answered from there.
 */
import { DRAWING_HEAD_BYTES, DRAWING_MARGIN, openDrawing, tileSpan } from "@convex/lib/geo/drawing";
import { STORAGE_CACHE, storageRangePlugin } from "./offlineCaches";

/** Around the turf's doors, what its map may show (degrees, about 500 m). */
const TURF_MARGIN_DEG = 0.005;

export type TurfStreetsReport = { ranges: number; bytes: number; chunks: number };

/**
 * Caches the ranges of `url` the map reads for the box [west, south, east, north]. Ranges already
 * cached are not fetched again. Resolves with what is cached; rejects when the file cannot be read.
 */
export async function cacheTurfStreets(
  url: string,
  box: [number, number, number, number],
  deps: { caches?: CacheStorage; fetch?: typeof fetch } = {},
): Promise<TurfStreetsReport> {
  const storage = deps.caches ?? globalThis.caches;
  const fetchFile = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  if (!storage) throw new Error("This browser keeps no offline copies (no Cache Storage).");
  const cache = await storage.open(STORAGE_CACHE);
  const report: TurfStreetsReport = { ranges: 0, bytes: 0, chunks: 0 };

  /** One read as the worker makes it, from the cache or the network (then cached). */
  const get = async (range: string | null) => {
    const request = new Request(url, range ? { headers: { Range: range } } : undefined);
    const key = await storageRangePlugin.cacheKeyWillBeUsed({ request });
    let res = await storageRangePlugin.cachedResponseWillBeUsed({ cachedResponse: await cache.match(key) });
    if (!res) {
      res = await fetchFile(request);
      if (!res.ok) throw new Error(`The streets layer could not be read (HTTP ${res.status}).`);
      const stored = await storageRangePlugin.cacheWillUpdate({ response: res.clone() });
      if (stored) await cache.put(key, stored);
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    report.ranges += 1;
    report.bytes += bytes.length;
    return { partial: res.status === 206, bytes };
  };

  const first = await get(`bytes=0-${DRAWING_HEAD_BYTES - 1}`);
  // a server that answers with the whole file: the worker reads it from that one response
  if (!first.partial) return report;
  const drawing = await openDrawing(first.bytes, {
    range: async (from, to) => {
      const r = await get(`bytes=${from}-${to - 1}`);
      return r.partial ? r.bytes : r.bytes.subarray(from, to);
    },
    whole: async () => (await get(null)).bytes,
  });
  if (!drawing.chunked) return report;
  await drawing.overview();
  const [w, s, e, n] = box;
  const span = tileSpan(
    [w - TURF_MARGIN_DEG, s - TURF_MARGIN_DEG, e + TURF_MARGIN_DEG, n + TURF_MARGIN_DEG],
    drawing.header.zoom,
    DRAWING_MARGIN,
  );
  for (let x = span.x0; x <= span.x1; x++)
    for (let y = span.y0; y <= span.y1; y++) if (await drawing.chunk(x, y)) report.chunks += 1;
  return report;
}
