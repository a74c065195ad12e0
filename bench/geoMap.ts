/**
 * Street map benchmark (`npm run bench:geo-map`): the street tiles worker's work, in Node, on a
 * synthetic county of ~60,000 street segments (tests/support/syntheticCounty.ts at 173 × 173 blocks,
 * a few highways, secondary roads and alleys among the local streets). Prints:
 *   1. the tile index's build time (what the worker does once a layer is loaded);
 *   2. at z12, z14 and z16, a screen of 4 × 3 tiles: cut cold (first time asked), asked again (cached),
 *      and a pan across the county one tile column at a time; tiles per second and the bytes a tile
 *      hands to the page;
 * after the machine speed index line. No goals are asserted: the figures are for reading.
 *   BENCH_GEO_MAP_BLOCKS=173
 */
import { performance } from "node:perf_hooks";
import type { FeatureCollection } from "geojson";
import { tileOf } from "../convex/lib/signs/geo";
import { buildStreetIndex, type StreetIndex, type StreetTile } from "../src/lib/map/streetTiles";
import { syntheticCounty } from "../tests/support/syntheticCounty";
import { speedIndexLine } from "./speedIndex";

const BLOCKS = Number(process.env.BENCH_GEO_MAP_BLOCKS ?? 173);
const SCREEN = { columns: 4, rows: 3 };
const PAN_STEPS = 12;

/** The county's edges as a streets layer, with a mix of road classes. */
function streetsLayer(): FeatureCollection {
  const county = syntheticCounty(36, "EDGES", { blocks: BLOCKS });
  return {
    type: "FeatureCollection",
    features: county.edges.features.map((f) => {
      const name = String(f.properties.FULLNAME);
      const mtfcc =
        name === "Main St" || name.endsWith("Broadway")
          ? "S1100"
          : /\b\d*0th\b/.test(name)
            ? "S1200"
            : name.includes("Spring Garden")
              ? "S1730"
              : String(f.properties.MTFCC);
      return { type: "Feature", geometry: f.geometry, properties: { name, mtfcc } };
    }),
  };
}

function tileBytes(t: StreetTile): number {
  const labels = t.labels.reduce((n, l) => n + l.text.length * 2 + 64, 0);
  return t.classes.byteLength + t.starts.byteLength + t.coords.byteLength + labels;
}

/** Asks for a screen of tiles whose top-left tile is (x, y); the time, tiles and bytes. */
function screen(index: StreetIndex, z: number, x: number, y: number) {
  let tiles = 0;
  let bytes = 0;
  let lines = 0;
  const t0 = performance.now();
  for (let dx = 0; dx < SCREEN.columns; dx++) {
    for (let dy = 0; dy < SCREEN.rows; dy++) {
      const t = index.tile(z, x + dx, y + dy);
      tiles++;
      if (t) {
        bytes += tileBytes(t);
        lines += t.classes.length;
      }
    }
  }
  return { ms: performance.now() - t0, tiles, bytes, lines };
}

function main() {
  console.log(speedIndexLine());
  const layer = streetsLayer();
  const t0 = performance.now();
  const index = buildStreetIndex(layer);
  const buildMs = performance.now() - t0;
  console.log(
    `index: ${index.segments.toLocaleString("en-US")} street segments (${BLOCKS} × ${BLOCKS} blocks) built in ${buildMs.toFixed(0)} ms`,
  );
  const [w, s, e, n] = index.bbox!;
  const centre = { lat: (s + n) / 2, lng: (w + e) / 2 };
  const perSecond = (tiles: number, ms: number) =>
    Math.round((tiles * 1000) / Math.max(ms, 0.001)).toLocaleString("en-US");
  for (const z of [12, 14, 16]) {
    const c = tileOf(centre.lat, centre.lng, z);
    const [x, y] = [c.x - Math.floor(SCREEN.columns / 2), c.y - Math.floor(SCREEN.rows / 2)];
    const cold = screen(index, z, x, y);
    const warm = screen(index, z, x, y);
    // a pan eastward: each step shows one new column of tiles (the screen asks for all of them)
    let panMs = 0;
    let panTiles = 0;
    let worst = 0;
    for (let step = 1; step <= PAN_STEPS; step++) {
      const r = screen(index, z, x + step, y);
      panMs += r.ms;
      panTiles += r.tiles;
      worst = Math.max(worst, r.ms);
    }
    console.log(
      `z${z} screen of ${SCREEN.columns}×${SCREEN.rows} tiles: cold ${cold.ms.toFixed(1)} ms (${perSecond(cold.tiles, cold.ms)} tiles/s, ` +
        `${cold.lines.toLocaleString("en-US")} lines, ${(cold.bytes / cold.tiles / 1024).toFixed(1)} KiB a tile), ` +
        `cached ${warm.ms.toFixed(2)} ms (${perSecond(warm.tiles, warm.ms)} tiles/s); ` +
        `pan ${PAN_STEPS} columns: ${perSecond(panTiles, panMs)} tiles/s, slowest screen ${worst.toFixed(1)} ms`,
    );
  }
}

main();
