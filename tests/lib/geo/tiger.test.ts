import { beforeAll, describe, expect, test } from "vitest";
import {
  detectLayer,
  NOT_A_TIGER_LAYER,
  toBoundaries,
  toStreetSegments,
  type LayerDetection,
  type StreetSegment,
} from "@convex/lib/geo/tiger";
import { readGeoJson, readShapefileZip, type ReadLayer } from "@/lib/geo/readLayer";
import { shapefileZip } from "../../support/shapefileZip";
import {
  syntheticCounty,
  type Collection,
  type LineFeature,
  type PolygonFeature,
  type Position,
} from "../../support/syntheticCounty";

const county = syntheticCounty(36);

function expectRefusal(value: unknown): string {
  expect(value).toHaveProperty("error");
  return (value as { error: string }).error;
}

async function readOne(zip: Uint8Array): Promise<ReadLayer> {
  const layers = await readShapefileZip(zip);
  if (!Array.isArray(layers)) throw new Error(layers.error);
  expect(layers).toHaveLength(1);
  return layers[0];
}

function detected(fields: string[], chosen?: string): LayerDetection {
  const d = detectLayer(fields, chosen);
  if ("error" in d) throw new Error(d.error);
  return d;
}

describe("a TIGER EDGES zip read back through shpjs", () => {
  let layer: ReadLayer;
  let segments: StreetSegment[];
  let result: { addressable: number; skipped: number };
  beforeAll(async () => {
    layer = await readOne(shapefileZip(county.edges, "tl_2024_17167_edges"));
    const converted = toStreetSegments(layer.features, detected(layer.fields));
    if ("error" in converted) throw new Error(converted.error);
    segments = converted.segments;
    result = converted;
  });

  test("is detected as a streets layer, EDGES, named by FULLNAME", () => {
    expect(layer.fileName).toBe("tl_2024_17167_edges");
    expect(layer.features).toHaveLength(county.edges.features.length);
    expect(detectLayer(layer.fields)).toMatchObject({
      kind: "streets",
      tigerLayer: "EDGES",
      nameField: "FULLNAME",
      fields: { lFrom: "LFROMADD", rTo: "RTOADD", zipL: "ZIPL", mtfcc: "MTFCC" },
    });
  });

  test("roads become segments; the creek and the railway are left out; roads without ranges are kept, not addressable", () => {
    const written = county.edges.features;
    const roads = written.filter((f) => String(f.properties.MTFCC).startsWith("S"));
    const ranged = roads.filter((f) => f.properties.LFROMADD !== "" && f.properties.FULLNAME !== "");
    expect(segments).toHaveLength(roads.length);
    expect(result.skipped).toBe(written.length - roads.length);
    expect(result.addressable).toBe(ranged.length);
    expect(segments.filter((s) => s.addressable)).toHaveLength(ranged.length);
    expect(ranged.length).toBeLessThan(roads.length - 1);
    // the unnamed service drive: drawn, never geocoded
    const unnamed = segments.filter((s) => s.name === undefined);
    expect(unnamed).toHaveLength(1);
    expect(unnamed[0]).toMatchObject({ addressable: false, mtfcc: "S1400" });
    expect(unnamed[0]).not.toHaveProperty("key");
  });

  test("each segment keeps its TLID, name, key, ranges, ZIPs, polyline and bounding box", () => {
    const byTlid = new Map(county.edges.features.map((f) => [f.properties.TLID, f]));
    for (const s of segments) {
      const f = byTlid.get(s.tlid!)!;
      expect(s.name ?? "").toBe(f.properties.FULLNAME);
      expect(s.coords).toHaveLength(f.geometry.coordinates.length);
      s.coords.forEach(([x, y], i) => {
        expect(x).toBeCloseTo(f.geometry.coordinates[i][0], 9);
        expect(y).toBeCloseTo(f.geometry.coordinates[i][1], 9);
      });
      const xs = f.geometry.coordinates.map((p) => p[0]);
      const ys = f.geometry.coordinates.map((p) => p[1]);
      expect(s.bbox[0]).toBeCloseTo(Math.min(...xs), 9);
      expect(s.bbox[3]).toBeCloseTo(Math.max(...ys), 9);
      if (s.addressable) {
        expect([s.lFrom, s.lTo, s.rFrom, s.rTo].map(String)).toEqual([
          f.properties.LFROMADD,
          f.properties.LTOADD,
          f.properties.RFROMADD,
          f.properties.RTOADD,
        ]);
        expect([s.zipL, s.zipR]).toEqual([f.properties.ZIPL, f.properties.ZIPR]);
      }
    }
    // ranges digitised against the numbering run high → low
    expect(segments.filter((s) => s.lFrom !== undefined && s.lFrom > s.lTo!).length).toBeGreaterThan(50);
    expect(segments.find((s) => s.name === "N 5th St")).toMatchObject({ key: "N 5TH ST", looseKey: "5TH" });
  });

  test("empty DBF fields are absent, not empty strings", () => {
    const unranged = segments.filter((s) => s.name !== undefined && !s.addressable);
    expect(unranged.length).toBeGreaterThan(0);
    for (const s of unranged) {
      for (const k of ["lFrom", "lTo", "rFrom", "rTo", "zipL", "zipR", "parityL", "parityR"])
        expect(s).not.toHaveProperty(k);
    }
    for (const s of segments) for (const v of Object.values(s)) expect(v).not.toBe("");
  });
});

describe("an ADDRFEAT zip", () => {
  test("is detected as streets by LFROMHN… with its parity fields", async () => {
    const addrfeat = syntheticCounty(36, "ADDRFEAT");
    const layer = await readOne(shapefileZip(addrfeat.edges, "tl_2024_17167_addrfeat"));
    const d = detected(layer.fields);
    expect(d).toMatchObject({
      kind: "streets",
      tigerLayer: "ADDRFEAT",
      fields: { lFrom: "LFROMHN", parityL: "PARITYL", mtfcc: "EDGE_MTFCC" },
    });
    const converted = toStreetSegments(layer.features, d);
    if ("error" in converted) throw new Error(converted.error);
    const withParity = converted.segments.filter((s) => s.parityL);
    expect(withParity.length).toBe(converted.addressable);
    for (const s of withParity) {
      expect(s.parityL).toBe(s.lFrom! % 2 ? "O" : "E");
      expect(s.parityR).toBe(s.rFrom! % 2 ? "O" : "E");
    }
  });
});

describe("boundary layers", () => {
  test("the VTD zip is detected as boundaries, named by NAME20, coded by GEOID20", async () => {
    const layer = await readOne(shapefileZip(county.precincts, "tl_2020_17167_vtd20"));
    const d = detected(layer.fields);
    expect(d).toEqual({ kind: "boundaries", tigerLayer: "VTD", nameField: "NAME20", codeField: "GEOID20" });
    const converted = toBoundaries(layer.features, d);
    if ("error" in converted) throw new Error(converted.error);
    expect(converted.boundaries.map((b) => [b.name, b.code, b.layer])).toEqual(
      county.precincts.features.map((f) => [f.properties.NAME20, f.properties.GEOID20, "VTD"]),
    );
    for (const [i, b] of converted.boundaries.entries()) {
      const ring = county.precincts.features[i].geometry.coordinates[0];
      expect(b.geometry.type).toBe("Polygon");
      expect(b.bbox[0]).toBeCloseTo(Math.min(...ring.map((p) => p[0])), 9);
      expect(b.bbox[1]).toBeCloseTo(Math.min(...ring.map((p) => p[1])), 9);
      expect(b.bbox[2]).toBeCloseTo(Math.max(...ring.map((p) => p[0])), 9);
      expect(b.bbox[3]).toBeCloseTo(Math.max(...ring.map((p) => p[1])), 9);
    }
  });

  test("each TIGER boundary layer by its own fields, in the annual and the decennial spellings", () => {
    const cases: [string[], object][] = [
      [
        [
          "STATEFP",
          "SLDUST",
          "GEOID",
          "GEOIDFQ",
          "NAMELSAD",
          "LSAD",
          "LSY",
          "MTFCC",
          "FUNCSTAT",
          "ALAND",
          "AWATER",
          "INTPTLAT",
          "INTPTLON",
        ],
        { tigerLayer: "SLDU", nameField: "NAMELSAD", codeField: "GEOID" },
      ],
      [
        ["STATEFP20", "SLDLST20", "GEOID20", "NAMELSAD20", "LSAD20", "LSY20", "MTFCC20", "FUNCSTAT20"],
        { tigerLayer: "SLDL", nameField: "NAMELSAD20", codeField: "GEOID20" },
      ],
      [
        ["STATEFP", "CD118FP", "GEOID", "GEOIDFQ", "NAMELSAD", "LSAD", "CDSESSN", "MTFCC", "FUNCSTAT"],
        { tigerLayer: "CD", nameField: "NAMELSAD", codeField: "GEOID" },
      ],
      [["STATEFP", "CD119FP", "GEOID", "NAMELSAD"], { tigerLayer: "CD" }],
      [
        [
          "STATEFP",
          "COUNTYFP",
          "COUNTYNS",
          "GEOID",
          "GEOIDFQ",
          "NAME",
          "NAMELSAD",
          "LSAD",
          "CLASSFP",
          "MTFCC",
          "CSAFP",
          "CBSAFP",
        ],
        { tigerLayer: "COUNTY", nameField: "NAME", codeField: "GEOID" },
      ],
      [
        ["STATEFP20", "COUNTYFP20", "COUNTYNS20", "GEOID20", "NAME20", "NAMELSAD20"],
        { tigerLayer: "COUNTY", nameField: "NAME20" },
      ],
      [
        [
          "STATEFP",
          "PLACEFP",
          "PLACENS",
          "GEOID",
          "GEOIDFQ",
          "NAME",
          "NAMELSAD",
          "LSAD",
          "CLASSFP",
          "PCICBSA",
          "MTFCC",
          "FUNCSTAT",
        ],
        { tigerLayer: "PLACE", nameField: "NAME", codeField: "GEOID" },
      ],
      [
        ["STATEFP10", "COUNTYFP10", "VTDST10", "GEOID10", "VTDI10", "NAME10", "NAMELSAD10"],
        { tigerLayer: "VTD", nameField: "NAME10", codeField: "GEOID10" },
      ],
      [
        ["statefp20", "countyfp20", "vtdst20", "geoid20", "name20"],
        { tigerLayer: "VTD", nameField: "name20", codeField: "geoid20" },
      ],
    ];
    for (const [fields, expected] of cases)
      expect({ fields, d: detectLayer(fields) }).toMatchObject({ fields, d: { kind: "boundaries", ...expected } });
    // a county subdivision file has COUNTYFP and COUNTYNS-less codes: not a county layer
    expect(detectLayer(["STATEFP", "COUNTYFP", "COUSUBFP", "COUSUBNS", "GEOID", "NAME"])).toEqual({
      error: NOT_A_TIGER_LAYER,
    });
  });

  test("a file that is not a TIGER layer is refused, unless the user chose its name field", async () => {
    const districts: Collection<PolygonFeature> = {
      type: "FeatureCollection",
      features: county.precincts.features.map((f, i) => ({
        ...f,
        properties: { WARD: `Ward ${i + 1}`, POP: 1000 + i },
      })),
    };
    const layer = await readOne(shapefileZip(districts, "city_wards"));
    const refusal = expectRefusal(detectLayer(layer.fields));
    expect(refusal).toBe(
      "This file is not a TIGER/Line streets or boundary layer: choose the field that holds each area's name.",
    );
    const chosen = detected(layer.fields, "WARD");
    expect(chosen).toEqual({ kind: "boundaries", tigerLayer: null, nameField: "WARD" });
    const converted = toBoundaries(layer.features, chosen);
    if ("error" in converted) throw new Error(converted.error);
    expect(converted.boundaries.map((b) => [b.name, b.layer])).toEqual(
      districts.features.map((f) => [f.properties.WARD, "custom"]),
    );
    expect(expectRefusal(detectLayer(layer.fields, "NAME"))).toContain('no field "NAME"');
    // a numeric field chosen as the name: its numbers are the names
    const numbers = toBoundaries(layer.features, detected(layer.fields, "POP"));
    expect("error" in numbers ? "" : numbers.boundaries[0].name).toBe("1000");
  });

  test("GeoJSON files are read as one layer", () => {
    const layer = readGeoJson("wards.geojson", JSON.stringify(county.precincts));
    if ("error" in layer) throw new Error(layer.error);
    expect(layer.fileName).toBe("wards");
    expect(detectLayer(layer.fields)).toMatchObject({ kind: "boundaries", tigerLayer: "VTD" });
    expect(expectRefusal(readGeoJson("x.json", "{not json"))).toContain("not valid JSON");
    expect(expectRefusal(readGeoJson("x.json", '{"type":"Topology"}'))).toContain("no FeatureCollection");
  });
});

describe("bad files are refused with a clear message", () => {
  test("a zip missing the .dbf", async () => {
    const refusal = expectRefusal(
      await readShapefileZip(shapefileZip(county.edges, "tl_2024_17167_edges", { without: ["dbf"] })),
    );
    expect(refusal).toBe(
      "tl_2024_17167_edges.shp has no .dbf file beside it (the attributes: names, codes, address ranges). Upload the whole zip as downloaded from the Census Bureau (it holds .shp, .shx, .dbf and .prj files).",
    );
  });

  test("a zip missing the .shp", async () => {
    const refusal = expectRefusal(
      await readShapefileZip(shapefileZip(county.edges, "tl_2024_17167_edges", { without: ["shp", "shx"] })),
    );
    expect(refusal).toContain("This zip has no .shp file (the shapes)");
  });

  test("not a zip at all", async () => {
    expect(expectRefusal(await readShapefileZip(new TextEncoder().encode("TLID,FULLNAME\n1,Main St\n")))).toContain(
      "not a zip archive",
    );
  });

  test("projected coordinates (metres) are refused as the wrong projection", async () => {
    // the same county in metres (a UTM-like grid) with a longitude/latitude .prj: nothing to convert it
    const toMetres = ([lng, lat]: Position): Position => [
      273_000 + (lng + 89.7) * 85_600,
      4_403_000 + (lat - 39.75) * 111_000,
    ];
    const projected: Collection<LineFeature> = {
      type: "FeatureCollection",
      features: county.edges.features.map((f) => ({
        ...f,
        geometry: { type: "LineString", coordinates: f.geometry.coordinates.map(toMetres) },
      })),
    };
    const layer = await readOne(shapefileZip(projected, "edges_utm16n"));
    const d = detected(layer.fields);
    const refusal = expectRefusal(toStreetSegments(layer.features, d));
    expect(refusal).toMatch(
      /^This file's coordinates are not longitude\/latitude \(2\d{5}, 440\d{4}\): it is in a projected coordinate system/,
    );
    expect(refusal).toContain("wrong projection");
    const precincts: Collection<PolygonFeature> = {
      type: "FeatureCollection",
      features: county.precincts.features.map((f) => ({
        ...f,
        geometry: { type: "Polygon", coordinates: f.geometry.coordinates.map((r) => r.map(toMetres)) },
      })),
    };
    const vtd = await readOne(shapefileZip(precincts, "vtd_utm16n"));
    expect(expectRefusal(toBoundaries(vtd.features, detected(vtd.fields)))).toContain("not longitude/latitude");
  });

  test("a layer of the other kind is refused by the other converter", async () => {
    const layer = await readOne(shapefileZip(county.precincts, "tl_2020_17167_vtd20"));
    expect(expectRefusal(toStreetSegments(layer.features, detected(layer.fields)))).toContain("not a streets layer");
    expect(
      expectRefusal(toBoundaries([], detected(["FULLNAME", "LFROMADD", "LTOADD", "RFROMADD", "RTOADD"]))),
    ).toContain("not a boundary layer");
  });
});
