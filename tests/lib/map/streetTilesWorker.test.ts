/**
 * The street tiles worker's message protocol (streetTiles.worker.ts), through its handler: load a
 * layer (a collection, or a stored file's URL the worker fetches itself) → segments and bounds;
 * tile → typed arrays handed over for transfer; errors as replies, never as a dead worker.
 */
import { describe, expect, test, vi } from "vitest";
import type { FeatureCollection } from "geojson";
import { tileOf } from "@convex/lib/signs/geo";
import { streetsDrawing } from "@convex/lib/geo/drawing";
import { detectLayer, toStreetSegments } from "@convex/lib/geo/tiger";
import { createStreetTileHandler, type StreetWorkerReply } from "@/lib/map/streetTiles.worker";
import { syntheticCounty } from "../../support/syntheticCounty";

const county = syntheticCounty();
const streets: FeatureCollection = {
  type: "FeatureCollection",
  features: county.edges.features.map((f) => ({
    type: "Feature",
    geometry: f.geometry,
    properties: { name: f.properties.FULLNAME, mtfcc: f.properties.MTFCC },
  })),
};
const roads = county.edges.features.filter((f) => String(f.properties.MTFCC).startsWith("S")).length;
/** The tile of Main St and Broadway's crossing at z16. */
const [lng, lat] = county.edges.features.find((f) => f.properties.FULLNAME === "Main St")!.geometry.coordinates[0];
const centre = tileOf(lat, lng, 16);

const tileReply = (r: StreetWorkerReply) => {
  if (r.type !== "tile" || !r.ok) throw new Error(`not a tile: ${JSON.stringify(r)}`);
  return r.tile;
};

/**
 * A county of several chunks stored as the upload stores it, served by byte ranges as Convex's
 * storage does (each range asked for noted in `reads`, the bytes served in `served`), and a point
 * in its middle.
 */
function chunkedCounty() {
  const wide = syntheticCounty(7, "EDGES", { blocks: 90 });
  const detection = detectLayer(Object.keys(wide.edges.features[0].properties));
  if ("error" in detection) throw new Error(detection.error);
  const layer = toStreetSegments(wide.edges.features, detection);
  if ("error" in layer) throw new Error(layer.error);
  const file = new TextEncoder().encode(streetsDrawing(layer.segments));
  const server = (log: { reads: string[]; served: number }) => async (_url: unknown, init?: RequestInit) => {
    const range = new Headers(init?.headers).get("Range") ?? "whole";
    log.reads.push(range);
    const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(range) ?? [];
    if (from === undefined) return new Response(file);
    const part = file.slice(Number(from), Math.min(file.length, Number(to) + 1));
    log.served += part.length;
    return new Response(part, { status: 206 });
  };
  const [mx, my] = wide.edges.features[Math.floor(wide.edges.features.length / 2)].geometry.coordinates[0];
  return { wide, layer, file, server, middle: tileOf(my, mx, 16) };
}

describe("the street tiles worker", () => {
  test("load a collection → segments and bounding box; a tile → typed arrays listed for transfer", async () => {
    const handle = createStreetTileHandler(vi.fn());
    const { reply } = await handle({ id: 1, type: "load", source: streets });
    expect(reply).toMatchObject({ id: 1, type: "load", ok: true, segments: roads });
    const bbox = (reply as { bbox: number[] }).bbox;
    expect(bbox[0]).toBeLessThan(lng + 1e-9);
    expect(bbox[2]).toBeGreaterThan(bbox[0]);
    expect(bbox[3]).toBeGreaterThan(bbox[1]);

    const { reply: t, transfer } = await handle({ id: 2, type: "tile", z: 16, x: centre.x, y: centre.y });
    expect(t).toMatchObject({ id: 2, type: "tile", ok: true });
    const tile = tileReply(t)!;
    expect(tile).toMatchObject({ z: 16, x: centre.x, y: centre.y });
    expect(tile.classes).toBeInstanceOf(Uint8Array);
    expect(tile.coords).toBeInstanceOf(Float32Array);
    expect(tile.classes.length).toBeGreaterThan(0);
    expect(tile.starts.length).toBe(tile.classes.length + 1);
    expect(tile.starts[tile.classes.length] * 2).toBe(tile.coords.length);
    expect(transfer).toEqual([tile.classes.buffer, tile.starts.buffer, tile.coords.buffer]);
    // the reply survives the structured clone a worker's postMessage makes, transfer list and all
    const copy = structuredClone(t, { transfer });
    expect(tileReply(copy)!.coords.length).toBeGreaterThan(0);
    expect(tile.coords.byteLength).toBe(0);
  });

  test("a tile away from the layer, or before any layer, is null", async () => {
    const handle = createStreetTileHandler(vi.fn());
    expect(tileReply((await handle({ id: 1, type: "tile", z: 16, x: centre.x, y: centre.y })).reply)).toBeNull();
    await handle({ id: 2, type: "load", source: streets });
    const far = tileOf(45.5, -122.6, 16);
    const { reply, transfer } = await handle({ id: 3, type: "tile", z: 16, x: far.x, y: far.y });
    expect(tileReply(reply)).toBeNull();
    expect(transfer).toEqual([]);
  });

  test("load a URL: the worker fetches and parses the stored file; tiles asked for meanwhile wait for it", async () => {
    let release!: () => void;
    const fetched = new Promise<void>((r) => (release = r));
    const fetchLayer = vi.fn(async () => {
      await fetched;
      return new Response(JSON.stringify(streets), { headers: { "content-type": "application/geo+json" } });
    });
    const handle = createStreetTileHandler(fetchLayer);
    const loading = handle({ id: 1, type: "load", source: "https://convex.example/api/storage/abc" });
    const tile = handle({ id: 2, type: "tile", z: 16, x: centre.x, y: centre.y });
    release();
    expect((await loading).reply).toMatchObject({ id: 1, ok: true, segments: roads });
    expect(tileReply((await tile).reply)).not.toBeNull();
    expect(fetchLayer).toHaveBeenCalledWith("https://convex.example/api/storage/abc", expect.anything());
  });

  test("load a chunked drawing copy (the upload's): the same segments and tiles as the whole layer", async () => {
    const { wide, layer, file, server, middle: at } = chunkedCounty();
    const log = { reads: [] as string[], served: 0 };
    const handle = createStreetTileHandler(server(log));
    const { reply } = await handle({ id: 1, type: "load", source: "https://convex.example/api/storage/chunked" });
    expect(reply).toMatchObject({ id: 1, ok: true, segments: layer.segments.length });
    const chunked = tileReply((await handle({ id: 2, type: "tile", z: 16, x: at.x, y: at.y })).reply)!;
    const whole = createStreetTileHandler(vi.fn());
    await whole({
      id: 1,
      type: "load",
      source: {
        type: "FeatureCollection",
        features: wide.edges.features.map((f) => ({
          type: "Feature",
          geometry: f.geometry,
          properties: { name: f.properties.FULLNAME, mtfcc: f.properties.MTFCC },
        })),
      },
    });
    const expected = tileReply((await whole({ id: 2, type: "tile", z: 16, x: at.x, y: at.y })).reply)!;
    expect(expected.classes.length).toBeGreaterThan(0);
    expect([...chunked.classes].sort()).toEqual([...expected.classes].sort());
    expect(chunked.coords.length).toBe(expected.coords.length);
    // the header, the overview and one chunk, not the whole file
    expect(log.served).toBeLessThan(file.length / 2);
  });

  test("a load with the map's view reads the chunk under it at once: its tiles then need no further read", async () => {
    const { server, middle: at } = chunkedCounty();
    const url = "https://convex.example/api/storage/chunked";
    // without a view: the header and overview only
    const plain = { reads: [] as string[], served: 0 };
    await createStreetTileHandler(server(plain))({ id: 1, type: "load", source: url });
    // with the view: its chunk too, before any tile is asked for
    const reads: string[] = [];
    const handle = createStreetTileHandler(server({ reads, served: 0 }));
    const view = { z: 16, x0: at.x - 1, y0: at.y - 1, x1: at.x + 1, y1: at.y + 1 };
    await handle({ id: 1, type: "load", source: url, view });
    await new Promise((r) => setTimeout(r, 0));
    expect(reads.length).toBeGreaterThan(plain.reads.length);
    const before = reads.length;
    const tile = tileReply((await handle({ id: 2, type: "tile", z: 16, x: at.x, y: at.y })).reply);
    expect(tile?.classes.length).toBeGreaterThan(0);
    expect(reads.length).toBe(before);
    expect(reads).not.toContain("whole");
  });

  test("a file that cannot be fetched or is not a FeatureCollection is a refused load, and leaves no layer", async () => {
    const notFound = createStreetTileHandler(async () => new Response("gone", { status: 404 }));
    expect((await notFound({ id: 1, type: "load", source: "https://x/y" })).reply).toEqual({
      id: 1,
      type: "load",
      ok: false,
      error: "The streets layer could not be read (HTTP 404).",
    });
    const handle = createStreetTileHandler(async () => new Response('{"type":"Feature"}'));
    await handle({ id: 2, type: "load", source: streets });
    expect((await handle({ id: 3, type: "load", source: "https://x/y" })).reply).toEqual({
      id: 3,
      type: "load",
      ok: false,
      error: "The streets layer is not a GeoJSON FeatureCollection.",
    });
    // the failed load replaced the earlier layer: nothing is drawn from a layer the page no longer shows
    expect(tileReply((await handle({ id: 4, type: "tile", z: 16, x: centre.x, y: centre.y })).reply)).toBeNull();
  });
});
