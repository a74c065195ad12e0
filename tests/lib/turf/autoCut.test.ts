import { describe, expect, test } from "vitest";
import { autoCut } from "@convex/lib/turf/autoCut";
import { doorAddress } from "@convex/lib/turf/doorAddress";
import { areaTester, cellOf, cellRanges, metres, ringPolygon, sideOfLine } from "@convex/lib/turf/geometry";
import { syntheticCounty } from "../../support/syntheticCounty";

const county = syntheticCounty(37);
const doors = county.houses.map((h) => {
  const d = doorAddress(`${h.number} ${h.fullName}, ${county.city}, ${county.state} ${h.zip}`)!;
  return { lat: h.lat, lng: h.lng, streetKey: d.streetKey, number: d.number };
});

describe("auto-cut", () => {
  for (const target of [25, 60, 150, 400]) {
    test(`${doors.length} doors into turfs of ${target}: ≥ 95 % within ±20 %, every door once, compact`, () => {
      const turfs = autoCut(doors, target);
      const within = turfs.filter((t) => Math.abs(t.length - target) <= 0.2 * target).length;
      expect(within / turfs.length).toBeGreaterThanOrEqual(0.95);
      const all = turfs.flat().sort((a, b) => a - b);
      expect(all).toEqual(doors.map((_, i) => i));
      // contiguous: a turf's doors lie close together (its diagonal is a few blocks, not the county)
      const limit = 300 + 40 * Math.sqrt(target) * 4;
      for (const t of turfs) {
        const lats = t.map((i) => doors[i].lat);
        const lngs = t.map((i) => doors[i].lng);
        const diagonal = metres(Math.min(...lats), Math.min(...lngs), Math.max(...lats), Math.max(...lngs));
        expect(diagonal).toBeLessThan(limit);
      }
    });
  }

  test("few doors: one turf; none: none", () => {
    expect(autoCut(doors.slice(0, 10), 150)).toHaveLength(1);
    expect(autoCut([], 150)).toEqual([]);
  });
});

describe("turf geometry", () => {
  test("a polygon's doors are found through its grid rows", () => {
    const area = ringPolygon([
      [-89.69, 39.76],
      [-89.68, 39.76],
      [-89.68, 39.77],
    ])!;
    const inside = areaTester(area);
    expect(inside(39.761, -89.681)).toBe(true);
    expect(inside(39.769, -89.689)).toBe(false);
    const ranges = cellRanges([-89.69, 39.76, -89.68, 39.77]);
    const cell = cellOf(39.761, -89.681);
    expect(ranges.some((r) => cell >= r.lo && cell <= r.hi)).toBe(true);
    expect(
      ringPolygon([
        [0, 0],
        [1, 1],
      ]),
    ).toBeNull();
  });

  test("a split line puts each door on one side", () => {
    const line: [number, number][] = [
      [-89.7, 39.75],
      [-89.6, 39.75],
    ];
    expect(sideOfLine(line, 39.76, -89.65)).toBe(1);
    expect(sideOfLine(line, 39.74, -89.65)).toBe(-1);
    // beyond the line's ends it extends straight on
    expect(sideOfLine(line, 39.76, -89.5)).toBe(1);
  });
});
