/**
 * Streets as vector tiles (issue 36, item 2): the style table's zoom rules, and the tiles of the
 * synthetic county — every street in the tiles that cover it, nothing that is not one of its
 * streets, road classes hidden below their zoom, street names that never overlap.
 */
import { describe, expect, test } from "vitest";
import type { FeatureCollection, LineString } from "geojson";
import { tileOf } from "@convex/lib/signs/geo";
import {
  boxesOverlap,
  buildStreetIndex,
  LABEL_ZOOM,
  labelWidth,
  roadClassOf,
  ROAD_STYLES,
  styleAt,
  TILE_SIZE,
  type StreetTile,
} from "@/lib/map/streetTiles";
import { syntheticCounty } from "../../support/syntheticCounty";

const CLASS = Object.fromEntries(ROAD_STYLES.map((s, i) => [s.name, i])) as Record<string, number>;

/** The county's EDGES as a streets layer: Main St a primary road, Broadway secondary, Spring Garden Pl an alley. */
function countyStreets(): FeatureCollection<LineString, { name: string; mtfcc: string }> {
  const county = syntheticCounty();
  const retype: Record<string, string> = { "Main St": "S1100", "N Broadway": "S1200", "S Broadway": "S1200" };
  return {
    type: "FeatureCollection",
    features: county.edges.features.map((f) => {
      const name = String(f.properties.FULLNAME);
      const mtfcc = retype[name] ?? (name.endsWith("Spring Garden Pl") ? "S1730" : String(f.properties.MTFCC));
      return { type: "Feature", geometry: f.geometry, properties: { name, mtfcc } };
    }),
  };
}

/** Web Mercator world pixels at a zoom (256 px tiles, as Leaflet). */
function worldPixel([lng, lat]: number[], z: number): [number, number] {
  const size = TILE_SIZE * 2 ** z;
  const r = (lat * Math.PI) / 180;
  return [((lng + 180) / 360) * size, ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * size];
}

function tileLines(tile: StreetTile): { c: number; pts: [number, number][] }[] {
  return [...tile.classes].map((c, i) => {
    const pts: [number, number][] = [];
    for (let k = tile.starts[i]; k < tile.starts[i + 1]; k++) pts.push([tile.coords[2 * k], tile.coords[2 * k + 1]]);
    return { c, pts };
  });
}

function distanceToPolyline([px, py]: [number, number], line: [number, number][]): number {
  let best = Infinity;
  for (let i = 0; i + 1 < line.length; i++) {
    const [ax, ay] = line[i];
    const [bx, by] = line[i + 1];
    const [dx, dy] = [bx - ax, by - ay];
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
    best = Math.min(best, Math.hypot(px - (ax + t * dx), py - (ay + t * dy)));
  }
  return best;
}

/** Points every pixel along a polyline. */
function alongLine(line: [number, number][]): [number, number][] {
  const out: [number, number][] = [line[0]];
  for (let i = 1; i < line.length; i++) {
    const [[ax, ay], [bx, by]] = [line[i - 1], line[i]];
    const steps = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay)));
    for (let k = 1; k <= steps; k++) out.push([ax + ((bx - ax) * k) / steps, ay + ((by - ay) * k) / steps]);
  }
  return out;
}

/** Every tile at a zoom that the county's bounding box touches. */
function tilesOver(bbox: [number, number, number, number], z: number) {
  const nw = tileOf(bbox[3], bbox[0], z);
  const se = tileOf(bbox[1], bbox[2], z);
  const out: { x: number; y: number }[] = [];
  for (let x = nw.x; x <= se.x; x++) for (let y = nw.y; y <= se.y; y++) out.push({ x, y });
  return out;
}

const streets = countyStreets();
const index = buildStreetIndex(streets);
const roads = streets.features.filter((f) => f.properties.mtfcc.startsWith("S"));

describe("the style table", () => {
  test("TIGER road classes: highways, ramps, locals, service drives, paths; other edges are not streets", () => {
    expect(ROAD_STYLES[roadClassOf("S1100")!].name).toBe("primary");
    expect(ROAD_STYLES[roadClassOf("S1200")!].name).toBe("secondary");
    expect(ROAD_STYLES[roadClassOf("S1630")!].name).toBe("ramp");
    expect(ROAD_STYLES[roadClassOf("S1400")!].name).toBe("local");
    expect(ROAD_STYLES[roadClassOf("s1400")!].name).toBe("local");
    expect(ROAD_STYLES[roadClassOf("S1500")!].name).toBe("4wd");
    expect(ROAD_STYLES[roadClassOf("S1640")!].name).toBe("service");
    for (const code of ["S1710", "S1720", "S1730", "S1740", "S1750", "S1780", "S1820", "S1830"])
      expect(ROAD_STYLES[roadClassOf(code)!].name, code).toBe("path");
    // a road code the table lacks is drawn as a local street; no code at all too (a plain GeoJSON layer)
    expect(ROAD_STYLES[roadClassOf("S1999")!].name).toBe("local");
    expect(ROAD_STYLES[roadClassOf(undefined)!].name).toBe("local");
    expect(roadClassOf("H3010")).toBeNull();
    expect(roadClassOf("R1011")).toBeNull();
  });

  test("highways from zoom 8, local streets from 13, paths from 15; hidden below", () => {
    const firstZoom = (name: string) => {
      for (let z = 0; z <= 20; z++) if (styleAt(CLASS[name], z)) return z;
      return null;
    };
    expect(firstZoom("primary")).toBe(8);
    expect(firstZoom("secondary")).toBe(8);
    expect(firstZoom("local")).toBe(13);
    expect(firstZoom("path")).toBe(15);
    expect(firstZoom("ramp")).toBeLessThan(13);
    expect(firstZoom("service")).toBeGreaterThanOrEqual(13);
  });

  test("lines widen as the map zooms in; major roads are wider than local streets; colours are CSS colours", () => {
    ROAD_STYLES.forEach((s, c) => {
      let last = 0;
      for (let z = s.minZoom; z <= 19; z++) {
        const st = styleAt(c, z)!;
        expect(st.width, `${s.name} z${z}`).toBeGreaterThanOrEqual(last);
        expect(st.color).toMatch(/^#[0-9a-f]{6}$/);
        if (st.casing) expect(st.casing).toMatch(/^#[0-9a-f]{6}$/);
        last = st.width;
      }
      expect(styleAt(c, 19)!.width).toBeGreaterThan(styleAt(c, s.minZoom)!.width);
    });
    for (const z of [13, 15, 17]) {
      expect(styleAt(CLASS.primary, z)!.width).toBeGreaterThan(styleAt(CLASS.local, z)!.width);
      expect(styleAt(CLASS.local, z)!.width).toBeGreaterThan(styleAt(CLASS.path, Math.max(z, 15))!.width / 2);
    }
  });
});

describe("the synthetic county's tiles", () => {
  test("the index counts the streets and their bounding box, not the creek or the railway", () => {
    expect(roads.length).toBe(streets.features.length - 2);
    expect(index.segments).toBe(roads.length);
    const lngs = roads.flatMap((f) => f.geometry.coordinates.map((p) => p[0]));
    const lats = roads.flatMap((f) => f.geometry.coordinates.map((p) => p[1]));
    expect(index.bbox).toEqual([Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)]);
  });

  test("at z14 every street segment is drawn in each tile it crosses, with its class", () => {
    const z = 14;
    const tiles = new Map<string, ReturnType<typeof tileLines>>();
    const linesOf = (x: number, y: number) => {
      const key = `${x}/${y}`;
      if (!tiles.has(key)) {
        const t = index.tile(z, x, y);
        tiles.set(key, t ? tileLines(t) : []);
      }
      return tiles.get(key)!;
    };
    let checked = 0;
    const shown = roads.filter((f) => styleAt(roadClassOf(f.properties.mtfcc)!, z));
    expect(shown.length).toBeGreaterThan(roads.length * 0.9);
    for (const f of shown) {
      const px = f.geometry.coordinates.map((p) => worldPixel(p, z));
      // the vertices and the middle of each part
      const samples = px.flatMap((p, i) =>
        i === 0 ? [p] : [[(px[i - 1][0] + p[0]) / 2, (px[i - 1][1] + p[1]) / 2] as [number, number], p],
      );
      const c = roadClassOf(f.properties.mtfcc)!;
      for (const [wx, wy] of samples) {
        const [tx, ty] = [Math.floor(wx / TILE_SIZE), Math.floor(wy / TILE_SIZE)];
        const local: [number, number] = [wx - tx * TILE_SIZE, wy - ty * TILE_SIZE];
        const near = linesOf(tx, ty).filter((l) => l.c === c && distanceToPolyline(local, l.pts) < 0.75);
        expect(near.length, `${f.properties.name} in ${z}/${tx}/${ty}`).toBeGreaterThan(0);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(shown.length * 4);
    expect(tiles.size).toBeGreaterThan(4);
  });

  test("no tile holds a line that is not part of one of the county's streets, nor one that misses the tile", () => {
    for (const z of [12, 14, 16, 18]) {
      const projected = roads.map((f) => ({
        c: roadClassOf(f.properties.mtfcc)!,
        px: f.geometry.coordinates.map((p) => worldPixel(p, z)),
      }));
      for (const { x, y } of tilesOver(index.bbox!, z)) {
        const tile = index.tile(z, x, y);
        if (!tile) continue;
        for (const line of tileLines(tile)) {
          const world = line.pts.map(([px, py]) => [px + x * TILE_SIZE, py + y * TILE_SIZE] as [number, number]);
          // every point of the line lies on one street of the same class (simplified at most a pixel off)
          const source = projected.find((s) => s.c === line.c && world.every((p) => distanceToPolyline(p, s.px) < 1));
          expect(source, `z${z} ${x}/${y}`).toBeDefined();
          // and something of it is inside the tile or its 10 px buffer
          const inside = ([px, py]: [number, number]) => px >= -10 && px <= 266 && py >= -10 && py <= 266;
          expect(alongLine(line.pts).some(inside), `z${z} ${x}/${y} ${JSON.stringify(line.pts.slice(0, 6))}`).toBe(
            true,
          );
        }
      }
    }
    // far from the county: nothing
    const far = tileOf(45.5, -122.6, 14);
    expect(index.tile(14, far.x, far.y)).toBeNull();
    expect(index.tile(14, -1, 0)).toBeNull();
    expect(index.tile(25, 0, 0)).toBeNull();
  });

  test("road classes are hidden below their zoom", () => {
    const classesAt = (z: number) => {
      const seen = new Set<string>();
      for (const { x, y } of tilesOver(index.bbox!, z)) {
        const tile = index.tile(z, x, y);
        if (tile) for (const c of tile.classes) seen.add(ROAD_STYLES[c].name);
      }
      return [...seen].sort();
    };
    expect(classesAt(7)).toEqual([]);
    expect(classesAt(8)).toEqual(["primary", "secondary"]);
    expect(classesAt(12)).toEqual(["primary", "secondary"]);
    expect(classesAt(13)).toEqual(["local", "primary", "secondary"]);
    expect(classesAt(14)).toEqual(["local", "primary", "secondary"]);
    expect(classesAt(15)).toEqual(["local", "path", "primary", "secondary"]);
    expect(classesAt(19)).toEqual(["local", "path", "primary", "secondary"]);
  });

  test("lines come sorted in drawing order (paths under locals under highways)", () => {
    for (const { x, y } of tilesOver(index.bbox!, 15)) {
      const tile = index.tile(15, x, y);
      if (!tile) continue;
      for (let i = 1; i < tile.classes.length; i++) expect(tile.classes[i]).toBeGreaterThanOrEqual(tile.classes[i - 1]);
    }
  });

  test("street names from zoom 15: inside the tile, along a street of that name, never overlapping", () => {
    const names = new Set(roads.map((f) => f.properties.name).filter(Boolean));
    for (const z of [13, 14]) {
      for (const { x, y } of tilesOver(index.bbox!, z)) expect(index.tile(z, x, y)?.labels ?? []).toEqual([]);
    }
    for (const z of [LABEL_ZOOM, 16, 17, 18]) {
      let labelled = 0;
      const byName = new Map(
        roads.map((f) => [f.properties.name, [] as [number, number][][]] as const).filter(([n]) => n),
      );
      for (const f of roads) byName.get(f.properties.name)?.push(f.geometry.coordinates.map((p) => worldPixel(p, z)));
      for (const { x, y } of tilesOver(index.bbox!, z)) {
        const tile = index.tile(z, x, y);
        if (!tile) continue;
        const { labels } = tile;
        labelled += labels.length;
        expect(new Set(labels.map((l) => l.text)).size, "each name once a tile").toBe(labels.length);
        for (const [i, l] of labels.entries()) {
          expect(names.has(l.text)).toBe(true);
          // 8 px inside the tile: two neighbours' names at their common edge keep 16 px apart
          expect(l.box[0]).toBeGreaterThanOrEqual(8);
          expect(l.box[1]).toBeGreaterThanOrEqual(8);
          expect(l.box[2]).toBeLessThanOrEqual(TILE_SIZE - 8);
          expect(l.box[3]).toBeLessThanOrEqual(TILE_SIZE - 8);
          expect(l.angle).toBeGreaterThan(-Math.PI / 2);
          expect(l.angle).toBeLessThanOrEqual(Math.PI / 2);
          // the box holds the text's width along its angle
          const along = Math.abs(Math.cos(l.angle)) * (l.box[2] - l.box[0]);
          expect(along + Math.abs(Math.sin(l.angle)) * (l.box[3] - l.box[1])).toBeGreaterThanOrEqual(
            labelWidth(l.text, l.size) - 1e-6,
          );
          // on its street
          const centre: [number, number] = [l.x + x * TILE_SIZE, l.y + y * TILE_SIZE];
          const d = Math.min(...byName.get(l.text)!.map((line) => distanceToPolyline(centre, line)));
          expect(d, l.text).toBeLessThan(2);
          for (const other of labels.slice(i + 1))
            expect(boxesOverlap(l.box, other.box), `${l.text} / ${other.text}`).toBe(false);
        }
      }
      expect(labelled, `labels at z${z}`).toBeGreaterThan(z === LABEL_ZOOM ? 10 : 30);
    }
  });

  test("street tiles are cut from the lines around them: a street across a z12 tile's edge is drawn on both sides", () => {
    // a z12 tile edge near the county, and streets crossing it, along it just outside, and far away
    const edge = tileOf(39.78, -89.65, 12);
    const edgeLng = (edge.x / 2 ** 12) * 360 - 180;
    const line = (name: string, a: [number, number], b: [number, number]) => ({
      type: "Feature" as const,
      geometry: { type: "LineString" as const, coordinates: [a, b] },
      properties: { name, mtfcc: "S1400" },
    });
    const idx = buildStreetIndex({
      type: "FeatureCollection",
      features: [
        line("Across Rd", [edgeLng - 0.004, 39.78], [edgeLng + 0.004, 39.78]),
        // 2 m west of the edge: its casing reaches into the east tile's buffer
        line("Edge Rd", [edgeLng - 0.00002, 39.775], [edgeLng - 0.00002, 39.785]),
        line("Far Rd", [edgeLng + 0.5, 39.78], [edgeLng + 0.51, 39.78]),
      ],
    });
    for (const z of [13, 14, 16, 18]) {
      const east = tileOf(39.78, edgeLng + 1e-7, z);
      const west = { x: east.x - 1, y: east.y };
      for (const t of [east, west]) {
        const tile = idx.tile(z, t.x, t.y);
        expect(tile, `z${z} ${t.x}/${t.y}`).not.toBeNull();
        const lines = tileLines(tile!);
        // Across Rd reaches the shared edge from this side
        const seam = t === east ? 0 : TILE_SIZE;
        const atEdge = lines.some((l) => l.pts.some(([px]) => px <= seam) && l.pts.some(([px]) => px >= seam));
        expect(atEdge, `Across Rd at the edge in z${z} ${t.x}/${t.y}`).toBe(true);
        // Edge Rd in the west tile, and in the east tile's buffer
        expect(lines.length, `z${z} ${t.x}/${t.y}`).toBe(2);
      }
      const far = tileOf(39.78, edgeLng + 0.505, z);
      expect(idx.tile(z, far.x, far.y)).not.toBeNull();
    }
  });

  test("a MultiLineString counts each part; features without a line, or not streets, are left out", () => {
    const idx = buildStreetIndex({
      type: "FeatureCollection",
      features: [
        {
          type: "Feature",
          geometry: {
            type: "MultiLineString",
            coordinates: [
              [
                [-89.7, 39.75],
                [-89.69, 39.75],
              ],
              [
                [-89.7, 39.76],
                [-89.69, 39.76],
              ],
            ],
          },
          properties: { name: "Two Part Rd", mtfcc: "S1400" },
        },
        { type: "Feature", geometry: { type: "Point", coordinates: [-89.7, 39.75] }, properties: {} },
        {
          type: "Feature",
          geometry: {
            type: "LineString",
            coordinates: [
              [-89.8, 39.7],
              [-89.6, 39.8],
            ],
          },
          properties: { name: "Sangamon Rv", mtfcc: "H3010" },
        },
        { type: "Feature", geometry: null as never, properties: {} },
      ],
    });
    expect(idx.segments).toBe(2);
    expect(idx.bbox).toEqual([-89.7, 39.75, -89.69, 39.76]);
    expect(buildStreetIndex({ type: "FeatureCollection", features: [] })).toMatchObject({ segments: 0, bbox: null });
  });
});
