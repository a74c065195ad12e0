/**
 * The chunked drawing copy of a streets layer (convex/lib/geo/drawing.ts): valid GeoJSON holding
 * every segment; the overview holds exactly the classes drawn below street zoom; each chunk holds
 * every line that reaches its tile (names in any script: byte ranges, not characters); and the
 * tiles cut chunk by chunk are the tiles cut from the whole layer.
 */
import { beforeAll, describe, expect, test } from "vitest";
import type { FeatureCollection, LineString } from "geojson";
import {
  DRAWING_CHUNK_ZOOM,
  DRAWING_MARGIN,
  OVERVIEW_MTFCC,
  bytesInMemory,
  DRAWING_HEAD_BYTES,
  openDrawing,
  type OpenDrawing,
  streetsDrawing,
  tileSpan,
} from "@convex/lib/geo/drawing";
import { detectLayer, toStreetSegments, type StreetSegment } from "@convex/lib/geo/tiger";
import { buildStreetIndex, chunkedStreetIndex, LOCAL_ZOOM, ROAD_STYLES, roadClassOf } from "@/lib/map/streetTiles";
import { tileOf } from "@convex/lib/signs/geo";
import { syntheticCounty } from "../../support/syntheticCounty";

/** The synthetic county's segments (a wide one: it spans several chunk tiles), Main St a highway, Broadway a ramp. */
function countySegments(): StreetSegment[] {
  const county = syntheticCounty(7, "EDGES", { blocks: 90 });
  const features = county.edges.features.map((f) => {
    const name = String(f.properties.FULLNAME);
    const mtfcc = name === "Main St" ? "S1100" : name.endsWith("Broadway") ? "S1630" : String(f.properties.MTFCC);
    return { ...f, properties: { ...f.properties, MTFCC: mtfcc } };
  });
  const detection = detectLayer(Object.keys(features[0].properties));
  if ("error" in detection) throw new Error(detection.error);
  const layer = toStreetSegments(features, detection);
  if ("error" in layer) throw new Error(layer.error);
  // a name in another script, so byte ranges and character positions differ
  layer.segments[3] = { ...layer.segments[3], name: "Calle Peñasco — 東通り" };
  return layer.segments;
}

const segments = countySegments();
const text = streetsDrawing(segments);
const bytes = new TextEncoder().encode(text);
let read: Extract<OpenDrawing, { chunked: true }>;
/** what a map fetched: the byte ranges it asked for */
const asked: [number, number][] = [];
beforeAll(async () => {
  const opened = await openDrawing(bytes.subarray(0, DRAWING_HEAD_BYTES), {
    range: async (from, to) => {
      asked.push([from, to]);
      return bytes.subarray(from, to);
    },
    whole: async () => {
      throw new Error("a chunked copy is never read whole");
    },
  });
  if (!opened.chunked) throw new Error("the drawing copy is not chunked");
  read = opened;
});
const key = (f: { geometry: LineString; properties: { name: string } }) =>
  `${f.properties.name}|${JSON.stringify(f.geometry.coordinates[0])}|${JSON.stringify(f.geometry.coordinates.at(-1))}`;
const featureKey = (s: StreetSegment) => {
  const r = (x: number) => Math.round(x * 1e6) / 1e6;
  return `${s.name ?? ""}|${JSON.stringify(s.coords[0].map(r))}|${JSON.stringify(s.coords.at(-1)!.map(r))}`;
};

describe("the chunked drawing copy", () => {
  test("is GeoJSON holding every segment (a line reaching several tiles once per tile)", () => {
    const whole = JSON.parse(text) as FeatureCollection<LineString, { name: string; mtfcc: string }>;
    expect(whole.type).toBe("FeatureCollection");
    const found = new Set(whole.features.map(key));
    for (const s of segments) expect(found.has(featureKey(s)), s.name).toBe(true);
    expect(read.header.segments).toBe(segments.length);
    expect(read.header.zoom).toBe(DRAWING_CHUNK_ZOOM);
    expect(read.header.tiles.length).toBeGreaterThan(3);
  });

  test("the overview holds exactly the classes drawn below street zoom", async () => {
    const overview = (await read.overview()).features as {
      geometry: LineString;
      properties: { name: string; mtfcc: string };
    }[];
    const expected = segments.filter((s) => OVERVIEW_MTFCC.includes(s.mtfcc ?? ""));
    expect(expected.length).toBeGreaterThan(10);
    expect(overview.map(key).sort()).toEqual(expected.map(featureKey).sort());
    // the same classes the map draws below LOCAL_ZOOM
    const drawnBelow = ROAD_STYLES.flatMap((st) => (st.minZoom < LOCAL_ZOOM ? st.mtfcc : []));
    expect([...OVERVIEW_MTFCC].sort()).toEqual([...drawnBelow].sort());
  });

  test("each chunk holds every line that reaches its tile, and nothing else; a map reads only its byte range", async () => {
    for (const [x, y, from, to] of read.header.tiles) {
      asked.length = 0;
      const lines = (await read.chunk(x, y))!.features as { geometry: LineString; properties: { name: string } }[];
      const expected = segments.filter((s) => {
        const span = tileSpan(s.bbox, DRAWING_CHUNK_ZOOM, DRAWING_MARGIN);
        return x >= span.x0 && x <= span.x1 && y >= span.y0 && y <= span.y1;
      });
      expect(lines.map(key).sort(), `chunk ${x}/${y}`).toEqual(expected.map(featureKey).sort());
      // one range of that chunk's size (or none: it came with the first bytes)
      expect(asked.length).toBeLessThanOrEqual(1);
      if (asked.length) expect(asked[0][1] - asked[0][0]).toBe(to - from);
    }
    expect(await read.chunk(0, 0)).toBeNull();
    const named = (await Promise.all(read.header.tiles.map(([x, y]) => read.chunk(x, y)))).flatMap(
      (c) => c!.features,
    ) as { properties: { name: string } }[];
    expect(named.some((f) => f.properties.name === "Calle Peñasco — 東通り")).toBe(true);
  });

  test("tiles cut chunk by chunk are the tiles cut from the whole layer", async () => {
    // the layer as one collection, each line once (the file repeats a line in each chunk it reaches)
    const r = (x: number) => Math.round(x * 1e6) / 1e6;
    const whole = buildStreetIndex({
      type: "FeatureCollection",
      features: segments.map((seg) => ({
        type: "Feature",
        geometry: { type: "LineString", coordinates: seg.coords.map(([lng, lat]) => [r(lng), r(lat)]) },
        properties: { name: seg.name ?? "", mtfcc: seg.mtfcc ?? "" },
      })),
    });
    const chunked = await chunkedStreetIndex(read);
    expect(chunked.segments).toBe(segments.length);
    const [w, s, e, n] = chunked.bbox!;
    let compared = 0;
    for (const z of [10, 12, 13, 14, 16, 17]) {
      const nw = tileOf(n, w, z);
      const se = tileOf(s, e, z);
      const step = Math.max(1, Math.floor((se.x - nw.x) / 6));
      for (let x = nw.x; x <= se.x; x += step) {
        for (let y = nw.y; y <= se.y; y += step) {
          const a = whole.tile(z, x, y);
          await chunked.prepare!(z, x, y);
          const b = chunked.tile(z, x, y);
          // the same lines, classes and labels
          const lines = (t: typeof a) =>
            t
              ? [...t.classes]
                  .map(
                    (c, i) =>
                      `${c}:${[...t.coords.subarray(2 * t.starts[i], 2 * t.starts[i + 1])].map((v) => v.toFixed(2)).join(",")}`,
                  )
                  .sort()
              : [];
          expect(lines(b), `z${z} ${x}/${y}`).toEqual(lines(a));
          expect(b?.labels.map((l) => l.text).sort() ?? [], `labels z${z} ${x}/${y}`).toEqual(
            a?.labels.map((l) => l.text).sort() ?? [],
          );
          if (a) compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(40);
    expect(roadClassOf("S1100")).not.toBeNull();
  });

  test("a big county's header, longer than the first bytes, is read with a larger range, not the whole file", async () => {
    // 3,600 short streets, each alone in its chunk (a county of ~3,600 chunks)
    const many: StreetSegment[] = [];
    for (let i = 0; i < 60; i++)
      for (let j = 0; j < 60; j++) {
        const [lng, lat] = [-118 + i * 0.05, 34 + j * 0.04];
        many.push({
          name: `Road ${i}-${j}`,
          mtfcc: "S1400",
          coords: [
            [lng, lat],
            [lng + 0.001, lat],
          ],
          bbox: [lng, lat, lng + 0.001, lat],
        } as StreetSegment);
      }
    const big = new TextEncoder().encode(streetsDrawing(many));
    const ranges: [number, number][] = [];
    const opened = await openDrawing(big.subarray(0, DRAWING_HEAD_BYTES), {
      range: async (from, to) => {
        ranges.push([from, to]);
        return big.subarray(from, to);
      },
      whole: async () => {
        throw new Error("read whole");
      },
    });
    if (!opened.chunked) throw new Error("not chunked");
    // (a line near a tile's edge is in its neighbour too)
    expect(opened.header.tiles.length).toBeGreaterThanOrEqual(3_600);
    expect(ranges[0]).toEqual([0, DRAWING_HEAD_BYTES * 16]);
    const [x, y] = opened.header.tiles[1_234];
    const chunk = await opened.chunk(x, y);
    expect(chunk?.features.length).toBeGreaterThanOrEqual(1);
  });

  test("a copy stored before chunks is read whole", async () => {
    const old = { type: "FeatureCollection", features: [] };
    const oldBytes = new TextEncoder().encode(JSON.stringify(old));
    expect(await openDrawing(oldBytes.subarray(0, 10), bytesInMemory(oldBytes))).toEqual({
      chunked: false,
      collection: old,
    });
    const junk = new TextEncoder().encode("not json");
    await expect(openDrawing(junk, bytesInMemory(junk))).rejects.toThrow();
  });
});
