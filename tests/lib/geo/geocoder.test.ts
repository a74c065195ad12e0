import { beforeAll, describe, expect, test } from "vitest";
import { normalizeAddress, type NormalizedAddress } from "@convex/lib/geo/address";
import {
  addressLookupPrefixes,
  CandidateIndex,
  geocode,
  haversine,
  OFFSET_METRES,
  segmentLookupKeys,
  type GeocodeResult,
} from "@convex/lib/geo/geocoder";
import { detectLayer, toStreetSegments, type StreetSegment } from "@convex/lib/geo/tiger";
import { readShapefileZip } from "@/lib/geo/readLayer";
import { shapefileZip } from "../../support/shapefileZip";
import { seededRandom, syntheticCounty, writtenAddress, type Position } from "../../support/syntheticCounty";

const county = syntheticCounty(36);
const featureByTlid = new Map(county.edges.features.map((f) => [f.properties.TLID as number, f]));
let segments: StreetSegment[];
let index: CandidateIndex;

/** The real upload path: the zip through shpjs, the layer detected, its rows, the index. */
beforeAll(async () => {
  const layers = await readShapefileZip(shapefileZip(county.edges, "tl_2024_17167_edges"));
  if (!Array.isArray(layers)) throw new Error(layers.error);
  const detection = detectLayer(layers[0].fields);
  if ("error" in detection) throw new Error(detection.error);
  const converted = toStreetSegments(layers[0].features, detection);
  if ("error" in converted) throw new Error(converted.error);
  segments = converted.segments;
  index = new CandidateIndex(segments);
});

function run(
  written: string,
  options = {},
): { address: NormalizedAddress; candidates: StreetSegment[]; result: GeocodeResult } {
  const address = normalizeAddress(written);
  if (!address) throw new Error(`not an address: ${written}`);
  const candidates = index.candidates(address);
  return { address, candidates, result: geocode(address, candidates, options) };
}

const placedOn = (r: GeocodeResult, candidates: StreetSegment[]) =>
  "segment" in r ? candidates[r.segment] : undefined;

/** Which side of a digitised line a point is on (+1 left, −1 right), from its nearest piece (local plane). */
function sideOf(line: Position[], [lng, lat]: Position): number {
  const k = Math.cos((lat * Math.PI) / 180);
  let best = { d: Infinity, cross: 0 };
  for (let i = 0; i < line.length - 1; i++) {
    const [ax, ay] = [line[i][0] * k, line[i][1]];
    const [bx, by] = [line[i + 1][0] * k, line[i + 1][1]];
    const [px, py] = [lng * k, lat];
    const [dx, dy] = [bx - ax, by - ay];
    const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
    const d = Math.hypot(ax + t * dx - px, ay + t * dy - py);
    if (d < best.d) best = { d, cross: dx * (py - ay) - dy * (px - ax) };
  }
  return Math.sign(best.cross);
}

function shuffled<T>(xs: T[], random: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe("generated addresses through the real parse path", () => {
  test("≥ 1,000 well-formed addresses in varied forms: ≥ 97 % matched, median error ≤ 30 m, none on a wrong street, every one on its side", () => {
    const random = seededRandom(3636);
    const sample = shuffled(county.houses, random).slice(0, 1500);
    const quality: Record<string, number> = {};
    const errors: number[] = [];
    const wrongStreet: string[] = [];
    const wrongSide: string[] = [];
    let sameSegment = 0;
    const forms = new Set<string>();
    for (const house of sample) {
      const written = writtenAddress(house, county, random);
      forms.add(
        written
          .replace(/\d+/g, "#")
          .replace(/[A-Za-z]+/g, (w) => (w === w.toUpperCase() ? "A" : w === w.toLowerCase() ? "a" : "Aa")),
      );
      const { candidates, result } = run(written);
      quality[result.quality] = (quality[result.quality] ?? 0) + 1;
      if (result.quality === "failed" || result.quality === "zip centroid") continue;
      const segment = placedOn(result, candidates)!;
      if (segment.name !== house.fullName) wrongStreet.push(`${written} → ${segment.name}`);
      if (segment.tlid === house.tlid) sameSegment++;
      errors.push(haversine([result.lng, result.lat], [house.lng, house.lat]));
      const truth = featureByTlid.get(house.tlid)!.geometry.coordinates;
      const expectedSide = house.side === "L" ? 1 : -1;
      if (
        sideOf(truth, [result.lng, result.lat]) !== expectedSide ||
        sideOf(truth, [house.lng, house.lat]) !== expectedSide
      )
        wrongSide.push(written);
      if ("side" in result && result.side !== house.side) wrongSide.push(`${written} (${result.side})`);
    }
    errors.sort((a, b) => a - b);
    const matched = (quality["exact range"] ?? 0) + (quality["interpolated"] ?? 0);
    const median = errors[Math.floor(errors.length / 2)];
    const p95 = errors[Math.floor(errors.length * 0.95)];
    console.info(
      `geocoded ${sample.length}: ${JSON.stringify(quality)}; matched ${((100 * matched) / sample.length).toFixed(1)} %, ` +
        `median error ${median.toFixed(1)} m, p95 ${p95.toFixed(1)} m, wrong street ${wrongStreet.length}, wrong side ${wrongSide.length}`,
    );
    expect(sample.length).toBeGreaterThanOrEqual(1000);
    // the forms really vary: abbreviations, words, units, ZIP+4, case
    expect(forms.size).toBeGreaterThan(100);
    expect(matched / sample.length).toBeGreaterThanOrEqual(0.97);
    expect(median).toBeLessThanOrEqual(30);
    // and not only the median: a quarter of the segments run against the numbering, and they are placed as well
    expect(p95).toBeLessThanOrEqual(30);
    expect(wrongStreet).toEqual([]);
    expect(wrongSide).toEqual([]);
    expect(sameSegment / matched).toBeGreaterThanOrEqual(0.99);
  });

  test("the same house written four ways lands on one point", () => {
    const house = county.houses.find((h) => h.street.ordinal === 5 && h.street.pre === "N" && h.number % 2 === 1)!;
    const street = `${house.number} ${house.fullName}`;
    const forms = [
      `${street}, Springfield, IL ${house.zip}`,
      `${house.number} North Fifth ${house.fullName.endsWith("Ave") ? "Avenue" : "Street"} Apt 4, Springfield, IL ${house.zip}-1234`,
      `${street.toUpperCase()} #12 SPRINGFIELD IL ${house.zip}`,
      `${house.number} n. 5th ${house.fullName.split(" ").pop()!.toLowerCase()}. unit b, springfield, il ${house.zip}`,
    ];
    const results = forms.map((f) => run(f).result);
    for (const r of results) expect(r).toMatchObject({ quality: "exact range", tlid: house.tlid, side: house.side });
    const [first, ...rest] = results as { lat: number; lng: number }[];
    for (const r of rest) expect(haversine([r.lng, r.lat], [first.lng, first.lat])).toBeLessThan(0.01);
  });
});

describe("numbers outside the ranges, blocks without ranges, unknown streets", () => {
  /** The end of a street's highest range on one side, from the written features (not the geocoder's rows). */
  function rangeEnd(fullName: string, to: number): Position {
    const f = county.edges.features.find(
      (x) =>
        x.properties.FULLNAME === fullName &&
        [x.properties.LTOADD, x.properties.LFROMADD, x.properties.RTOADD, x.properties.RFROMADD].includes(String(to)),
    )!;
    const c = f.geometry.coordinates;
    const atStart = f.properties.LFROMADD === String(to) || f.properties.RFROMADD === String(to);
    return atStart ? c[0] : c[c.length - 1];
  }

  test("a number just past the street's last range is interpolated at that range's end", () => {
    const extent = county.streetExtent.get("E Oak St")!;
    // the last block's even side runs to high − 1; the number is 12 past it
    const lastEven = extent.high - 1;
    const { candidates, result } = run(`${lastEven + 12} East Oak Street, Springfield, IL 62702`);
    expect(result.quality).toBe("interpolated");
    expect(placedOn(result, candidates)?.name).toBe("E Oak St");
    const end = rangeEnd("E Oak St", lastEven);
    const d = haversine(end, [(result as { lng: number }).lng, (result as { lat: number }).lat]);
    expect(d).toBeGreaterThan(OFFSET_METRES - 1);
    expect(d).toBeLessThan(OFFSET_METRES + 1);
  });

  test("a number far outside every range is placed on the street only", () => {
    const { candidates, result } = run("9000 E Oak St, Springfield, IL 62702");
    expect(result.quality).toBe("street only");
    expect(placedOn(result, candidates)?.name).toBe("E Oak St");
    const street = county.edges.features
      .filter((f) => f.properties.FULLNAME === "E Oak St")
      .flatMap((f) => f.geometry.coordinates);
    const r = result as { lat: number; lng: number };
    expect(r.lng).toBeGreaterThanOrEqual(Math.min(...street.map((p) => p[0])));
    expect(r.lng).toBeLessThanOrEqual(Math.max(...street.map((p) => p[0])));
    expect(Math.min(...street.map((p) => haversine(p, [r.lng, r.lat])))).toBeLessThan(100);
  });

  test("houses on blocks TIGER left without ranges: interpolated or street only, never exact, never another street", () => {
    expect(county.unrangedHouses.length).toBeGreaterThan(20);
    const random = seededRandom(99);
    const seen = new Set<string>();
    for (const house of county.unrangedHouses) {
      const { candidates, result } = run(writtenAddress(house, county, random));
      seen.add(result.quality);
      expect(["interpolated", "street only"]).toContain(result.quality);
      expect(placedOn(result, candidates)?.name).toBe(house.fullName);
    }
    expect(seen.size).toBeGreaterThan(0);
  });

  test("an unknown street fails, or falls back to the ZIP centroid the caller gives", () => {
    expect(run("123 Nowhere Ln, Springfield, IL 62701").result).toEqual({ quality: "failed" });
    expect(run("123 Nowhere Ln, Springfield, IL 62701", { zipCentroid: { lat: 39.8, lng: -89.65 } }).result).toEqual({
      quality: "zip centroid",
      lat: 39.8,
      lng: -89.65,
    });
    // a street of the county in a ZIP where it does not run, far outside its ranges: not guessed
    expect(run("9000 E Oak St, Springfield, IL 62799").result).toEqual({ quality: "failed" });
  });

  test("written without type or directional: found only when one street fits", () => {
    const main = county.houses.find((h) => h.fullName === "Main St")!;
    const { candidates, result } = run(`${main.number} Main, Springfield, IL ${main.zip}`);
    expect(result.quality).toBe("exact range");
    expect(placedOn(result, candidates)?.tlid).toBe(main.tlid);
    // "Oak St" is E Oak St and W Oak St, both with a 100 block: ambiguous, not guessed
    expect(run("150 Oak St, Springfield, IL 62702").result.quality).toBe("failed");
    // a different type is a different street
    expect(run(`${main.number} Main Ave, Springfield, IL ${main.zip}`).result.quality).toBe("failed");
  });

  test("a ZIP that TIGER puts on the other side of the line still lands, on the right segment", () => {
    const house = county.houses.find((h) => h.fullName === "W Maple Ave" && h.zip === "62701")!;
    const { result } = run(`${house.number} W Maple Ave, Springfield, IL 62702`);
    expect(result).toMatchObject({ quality: "exact range", tlid: house.tlid, side: house.side });
  });
});

describe("interpolation on a hand-drawn segment", () => {
  // 1 km due east at 40° N; north is the left of the digitised direction
  const line: Position[] = [
    [-89, 40],
    [-89 + 1000 / (111_195 * Math.cos((40 * Math.PI) / 180)), 40],
  ];
  const base: StreetSegment = {
    name: "Test Rd",
    key: "TEST RD",
    looseKey: "TEST",
    addressable: true,
    coords: line,
    bbox: [line[0][0], 40, line[1][0], 40],
  };
  const address = (n: number, zip?: string): NormalizedAddress => ({
    number: n,
    street: "Test Rd",
    key: "TEST RD",
    looseKey: "TEST",
    ...(zip ? { zip } : {}),
  });
  const metresFrom = (r: GeocodeResult) => {
    const p = r as { lat: number; lng: number };
    const east = (p.lng - line[0][0]) * 111_195 * Math.cos((40 * Math.PI) / 180);
    const north = (p.lat - 40) * 111_195;
    return { east, north };
  };

  test("a number is placed along the range by its share of the range, offset to its side", () => {
    const seg = { ...base, lFrom: 100, lTo: 198, rFrom: 101, rTo: 199, zipL: "62701", zipR: "62701" };
    const even = metresFrom(geocode(address(150), [seg]));
    expect(even.east).toBeCloseTo((1000 * 50) / 98, 0);
    expect(even.north).toBeCloseTo(OFFSET_METRES, 1);
    const odd = geocode(address(151), [seg]);
    expect(odd).toMatchObject({ quality: "exact range", side: "R" });
    expect(metresFrom(odd).east).toBeCloseTo((1000 * 50) / 98, 0);
    expect(metresFrom(odd).north).toBeCloseTo(-OFFSET_METRES, 1);
  });

  test("a range running high → low along the line counts from its FROM end", () => {
    const seg = { ...base, lFrom: 198, lTo: 100, rFrom: 199, rTo: 101 };
    const p = metresFrom(geocode(address(120), [seg]));
    expect(p.east).toBeCloseTo((1000 * 78) / 98, 0);
    expect(p.north).toBeCloseTo(OFFSET_METRES, 1);
  });

  test("parity: from the PARITY fields, else from the range's ends", () => {
    // an odd number on a side whose ends are even is not in that range
    const even = { ...base, lFrom: 100, lTo: 198 };
    expect(geocode(address(151), [even]).quality).not.toBe("exact range");
    // PARITYL B: both
    expect(geocode(address(151), [{ ...even, parityL: "B" as const }])).toMatchObject({
      quality: "exact range",
      side: "L",
    });
    // mixed ends (100–199) hold both
    expect(geocode(address(151), [{ ...base, lFrom: 100, lTo: 199 }])).toMatchObject({
      quality: "exact range",
      side: "L",
    });
  });

  test("the address's ZIP chooses between two places; without one, two places are not guessed between", () => {
    const far: Position[] = line.map(([x, y]) => [x + 0.2, y]);
    const here = { ...base, lFrom: 100, lTo: 198, zipL: "62701" };
    const there = {
      ...base,
      coords: far,
      bbox: [far[0][0], 40, far[1][0], 40] as StreetSegment["bbox"],
      lFrom: 100,
      lTo: 198,
      zipL: "62799",
    };
    expect(geocode(address(150, "62799"), [here, there])).toMatchObject({ quality: "exact range", segment: 1 });
    expect(geocode(address(150, "62701"), [here, there])).toMatchObject({ quality: "exact range", segment: 0 });
    expect(geocode(address(150), [here, there])).toEqual({ quality: "failed" });
    expect(geocode(address(150), [here])).toMatchObject({ quality: "exact range", segment: 0 });
  });
});

describe("candidates by key and ZIP", () => {
  test("the index returns the street's segments only, found by the keys a server would index", () => {
    const address = normalizeAddress("120 North Fifth Street, Springfield, IL 62701")!;
    const candidates = index.candidates(address);
    const expected = segments.filter((s) => s.key === "N 5TH ST");
    expect(candidates.length).toBe(expected.length);
    expect(candidates.every((s) => s.key === "N 5TH ST")).toBe(true);
    // every candidate has a lookup key under the address's first prefix; no other segment does
    const [prefix] = addressLookupPrefixes(address);
    const found = segments.filter((s) => segmentLookupKeys(s).some((k) => k.startsWith(prefix)));
    expect(found).toHaveLength(expected.length);
    // a segment on the ZIP line is found under both of its ZIPs
    const split = segments.find((s) => s.zipL && s.zipR && s.zipL !== s.zipR)!;
    expect(segmentLookupKeys(split)).toEqual(
      expect.arrayContaining([`${split.key}|${split.zipL}`, `${split.key}|${split.zipR}`]),
    );
    // written without its directional: the loose key finds it when the exact key finds nothing
    expect(index.candidates(normalizeAddress("120 Fifth Street, Springfield, IL 62701")!).map((s) => s.key)).toContain(
      "N 5TH ST",
    );
  });

  test("an unnamed segment is never a candidate", () => {
    const unnamed = segments.find((s) => !s.name)!;
    expect(segmentLookupKeys(unnamed)).toEqual([]);
  });
});
