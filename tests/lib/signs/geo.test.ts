import { describe, expect, test } from "vitest";
import {
  coveringTiles,
  inBounds,
  keyRangeEnd,
  keyTile,
  MAX_COVER_TILES,
  quadkey,
  tileBounds,
  tileKey,
  tileOf,
  validBounds,
  zipOf,
} from "@convex/lib/signs/geo";
import { zipCoordinates } from "@/features/signs/utils/zipLookup";
import { fromDayInput, dayInput, markerColor } from "@/features/signs/utils/signDisplay";

describe("tiles and quadkeys", () => {
  test("a point's tile contains it at every level, and the tile's key prefixes the point's key", () => {
    const [lat, lng] = [45.5051, -122.675];
    const full = quadkey(lat, lng);
    expect(full).toHaveLength(18);
    for (let z = 0; z <= 18; z++) {
      const t = tileOf(lat, lng, z);
      const b = tileBounds(t);
      expect(inBounds(b, lat, lng)).toBe(true);
      expect(full.startsWith(tileKey(t))).toBe(true);
      expect(keyTile(tileKey(t))).toEqual(t);
    }
    // Portland at zoom 12 (OSM numbering, worked by hand: y = (1 − ln(tan φ + sec φ)/π)/2 · 4096 = 1465.5)
    expect(tileOf(lat, lng, 12)).toEqual({ x: 652, y: 1465, z: 12 });
  });
  test("a prefix range holds exactly the keys inside the tile", () => {
    const inside = quadkey(45.5, -122.6);
    const prefix = inside.slice(0, 10);
    expect(inside >= prefix && inside < keyRangeEnd(prefix)).toBe(true);
    const outside = quadkey(40.7, -74.0);
    expect(outside >= prefix && outside < keyRangeEnd(prefix)).toBe(false);
  });
  test("a viewport is covered by at most MAX_COVER_TILES tiles, coarser when it is large", () => {
    const city = { south: 45.45, west: -122.8, north: 45.56, east: -122.55 };
    const tiles = coveringTiles(city, 12);
    expect(tiles.length).toBeLessThanOrEqual(MAX_COVER_TILES);
    expect(tiles.every((t) => t.z === 12)).toBe(true);
    const nation = coveringTiles({ south: 24, west: -125, north: 50, east: -66 }, 12);
    expect(nation.length).toBeLessThanOrEqual(MAX_COVER_TILES);
    expect(nation[0].z).toBeLessThan(12);
    // the union of the tiles covers the viewport's corners
    for (const [la, ln] of [
      [city.south, city.west],
      [city.north, city.east],
    ])
      expect(tiles.some((t) => inBounds(tileBounds(t), la, ln))).toBe(true);
  });
  test("bounds are checked", () => {
    expect(validBounds({ south: 1, west: 1, north: 2, east: 2 })).toBe(true);
    expect(validBounds({ south: 2, west: 1, north: 1, east: 2 })).toBe(false);
    expect(validBounds({ south: Number.NaN, west: 1, north: 2, east: 2 })).toBe(false);
  });
});

describe("ZIP codes", () => {
  test("the ZIP at the end of an address", () => {
    expect(zipOf("1120 SW 5th Ave, Portland, OR 97204")).toBe("97204");
    expect(zipOf("1120 SW 5th Ave, Portland, OR 97204-1234")).toBe("97204");
    expect(zipOf("12 Main St, Springfield 97477, USA")).toBe("97477");
    expect(zipOf("12345 Main St, Portland, OR")).toBeNull();
  });
  test("offline ZIP → coordinates places a sign near its address", async () => {
    const hit = await zipCoordinates("1120 SW 5th Ave, Portland, OR 97204");
    expect(hit?.zip).toBe("97204");
    expect(hit!.lat).toBeCloseTo(45.52, 1);
    expect(hit!.lng).toBeCloseTo(-122.67, 1);
    expect(await zipCoordinates("No zip here")).toBeNull();
    expect(await zipCoordinates("Somewhere 00000")).toBeNull();
  });
});

describe("sign display", () => {
  test("marker colours by status, red when unknown", () => {
    expect(markerColor("Active")).toBe("#16a34a");
    expect(markerColor("Scheduled")).toBe("#2563eb");
    expect(markerColor("Removed")).toBe("#6b7280");
    expect(markerColor("Lost")).toBe("#dc2626");
  });
  test("day inputs keep the local day and time", () => {
    const at = fromDayInput("2026-03-08", "09:30")!;
    expect(new Date(at).getHours()).toBe(9);
    expect(dayInput(at)).toBe("2026-03-08");
    expect(fromDayInput("2026-02-30")).toBeNull();
    expect(fromDayInput("yesterday")).toBeNull();
  });
});
