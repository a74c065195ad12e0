/**
 * The turf's streets offline (src/features/canvass/utils/turfStreets.ts, offlineCaches.ts): opening
 * a list reads the streets file's head and the chunks under the turf by the same byte ranges the
 * map's street tiles worker asks for, and keeps each in the cache the service worker answers from
 * (a 206 kept as a 200 with its range, handed back as the 206 the worker expects). Then, with the
 * network gone, the worker's own requests answered only from that cache paint the turf's streets,
 * and nothing far from the turf was kept.
 */
import { describe, expect, test } from "vitest";
import { streetsDrawing } from "@convex/lib/geo/drawing";
import { detectLayer, toStreetSegments } from "@convex/lib/geo/tiger";
import { tileOf } from "@convex/lib/signs/geo";
import { STORAGE_CACHE, isStoredFile, storageRangePlugin } from "@/features/canvass/utils/offlineCaches";
import { cacheTurfStreets } from "@/features/canvass/utils/turfStreets";
import { createStreetTileHandler, type StreetWorkerReply } from "@/lib/map/streetTiles.worker";
import { syntheticCounty } from "../../support/syntheticCounty";

const URL_ = "https://backend.example/api/storage/0a1b2c3d";

/** Cache Storage as the browser keeps it (string keys: the plugin's keys are strings). */
class FakeCaches {
  readonly stores = new Map<string, Map<string, Response>>();
  async open(name: string) {
    const store = this.stores.get(name) ?? new Map<string, Response>();
    this.stores.set(name, store);
    return {
      match: async (key: string) => store.get(key)?.clone(),
      put: async (key: string, res: Response) => {
        if (res.status === 206) throw new TypeError("Partial response (status code 206) is unsupported");
        store.set(key, res.clone());
      },
    };
  }
}

/** A county of several chunks, served by byte ranges as Convex's storage serves it. */
function county() {
  const wide = syntheticCounty(7, "EDGES", { blocks: 90 });
  const detection = detectLayer(Object.keys(wide.edges.features[0].properties));
  if ("error" in detection) throw new Error(detection.error);
  const layer = toStreetSegments(wide.edges.features, detection);
  if ("error" in layer) throw new Error(layer.error);
  const file = new TextEncoder().encode(streetsDrawing(layer.segments));
  const reads: string[] = [];
  const serve = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(String(input), init);
    const range = req.headers.get("Range");
    reads.push(range ?? "whole");
    const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(range ?? "") ?? [];
    if (from === undefined) return new Response(file, { headers: { "content-type": "application/json" } });
    const part = file.slice(Number(from), Math.min(file.length, Number(to) + 1));
    return new Response(part, {
      status: 206,
      headers: { "content-range": `bytes ${from}-${Number(from) + part.length - 1}/${file.length}` },
    });
  };
  // a turf of a few blocks in the county's middle
  const mid = wide.houses[Math.floor(wide.houses.length / 2)];
  const near = wide.houses.filter((h) => Math.abs(h.lat - mid.lat) < 0.002 && Math.abs(h.lng - mid.lng) < 0.002);
  const box: [number, number, number, number] = [
    Math.min(...near.map((h) => h.lng)),
    Math.min(...near.map((h) => h.lat)),
    Math.max(...near.map((h) => h.lng)),
    Math.max(...near.map((h) => h.lat)),
  ];
  return { wide, file, serve, reads, mid, box };
}

/** The service worker's answer offline: the stored-files route from the cache, nothing from the network. */
function offlineWorkerFetch(caches: FakeCaches) {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    expect(isStoredFile({ url: new URL(request.url), request })).toBe(true);
    const cache = await caches.open(STORAGE_CACHE);
    const key = await storageRangePlugin.cacheKeyWillBeUsed({ request });
    const res = await storageRangePlugin.cachedResponseWillBeUsed({ cachedResponse: await cache.match(key) });
    if (!res) throw new TypeError("Failed to fetch");
    return res;
  };
}

const tile = (r: StreetWorkerReply) => {
  if (r.type !== "tile" || !r.ok) throw new Error(`not a tile: ${JSON.stringify(r)}`);
  return r.tile;
};

describe("the turf's streets offline", () => {
  test("a partial response is kept as a 200 with its range and handed back as that 206", async () => {
    const res = new Response(new Uint8Array([1, 2, 3]), {
      status: 206,
      headers: { "content-range": "bytes 10-12/100", "content-type": "application/json" },
    });
    const stored = (await storageRangePlugin.cacheWillUpdate({ response: res }))!;
    expect(stored.status).toBe(200);
    const back = (await storageRangePlugin.cachedResponseWillBeUsed({ cachedResponse: stored }))!;
    expect(back.status).toBe(206);
    expect(back.headers.get("content-range")).toBe("bytes 10-12/100");
    expect(back.headers.get("x-precinct-partial")).toBeNull();
    expect([...new Uint8Array(await back.arrayBuffer())]).toEqual([1, 2, 3]);
    // errors are not kept; whole files are kept as they are
    expect(await storageRangePlugin.cacheWillUpdate({ response: new Response("no", { status: 404 }) })).toBeNull();
    const whole = new Response("x");
    expect(await storageRangePlugin.cacheWillUpdate({ response: whole })).toBe(whole);
    // one key per range of a file; the whole file under its own URL
    const key = (range?: string) =>
      storageRangePlugin.cacheKeyWillBeUsed({
        request: new Request(URL_, range ? { headers: { Range: range } } : undefined),
      });
    expect(await key("bytes=0-65535")).toBe(`${URL_}?precinct-range=bytes%3D0-65535`);
    expect(await key()).toBe(URL_);
    expect(await key("bytes=0-65535")).not.toBe(await key("bytes=65536-70000"));
  });

  test("opening a list keeps the ranges under its turf; offline, the map's worker paints the turf from them", async () => {
    const { file, serve, reads, mid, box } = county();
    const caches = new FakeCaches();
    const report = await cacheTurfStreets(URL_, box, { caches: caches as unknown as CacheStorage, fetch: serve });
    expect(report.chunks).toBeGreaterThan(0);
    expect(report.ranges).toBe(reads.length);
    // the turf's chunks, not the county: far less than the file
    expect(report.bytes).toBeLessThan(file.length / 2);
    expect(reads[0]).toBe("bytes=0-65535");
    expect(reads).not.toContain("whole");

    // opened again: everything comes from the cache
    const before = reads.length;
    await cacheTurfStreets(URL_, box, { caches: caches as unknown as CacheStorage, fetch: serve });
    expect(reads.length).toBe(before);

    // offline: the worker reads the same ranges through the service worker's cache only
    const handle = createStreetTileHandler(offlineWorkerFetch(caches));
    const { reply } = await handle({ id: 1, type: "load", source: URL_ });
    expect(reply).toMatchObject({ ok: true });
    for (const z of [14, 16, 17]) {
      const at = tileOf(mid.lat, mid.lng, z);
      const t = tile((await handle({ id: 2, type: "tile", z, x: at.x, y: at.y })).reply);
      expect(t?.classes.length ?? 0).toBeGreaterThan(0);
    }
    // a part of the county far from the turf was not kept: its tile cannot be read offline
    const far = tileOf(mid.lat + 0.3, mid.lng + 0.3, 16);
    const farReply = (await handle({ id: 3, type: "tile", z: 16, x: far.x, y: far.y })).reply;
    expect(farReply.type === "tile" && farReply.ok ? farReply.tile : null).toBeNull();
  });
});
