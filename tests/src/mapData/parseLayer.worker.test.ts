// @vitest-environment node
/**
 * The Map data worker's handler (src/features/mapData/worker/parseLayer.worker.ts), called in Node
 * without a Worker, on the synthetic county's shapefile zips (tests/support): a streets zip becomes
 * the rows and drawing copy the upload sends, a VTD zip becomes areas, a file that is not a TIGER
 * layer asks for its name field, and broken files are refused with the spec's kind of message.
 * Expected counts come from the county's own properties, not from the converter.
 */
import { beforeAll, describe, expect, test } from "vitest";
import {
  handleParseRequest,
  TEXTS,
  type ParseMessage,
  type ParsedLayer,
} from "@/features/mapData/worker/parseLayer.worker";
import { shapefileZip } from "../../support/shapefileZip";
import {
  syntheticCounty,
  type Collection,
  type LineFeature,
  type PolygonFeature,
  type Position,
} from "../../support/syntheticCounty";

const county = syntheticCounty(36);

const fileOf = (bytes: Uint8Array | string, name: string) =>
  new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name);

async function run(file: File, nameField?: string): Promise<ParseMessage[]> {
  const messages: ParseMessage[] = [];
  await handleParseRequest({ file, nameField }, (m) => messages.push(m));
  return messages;
}

/** The one final message (every answer ends with exactly one), after progress only. */
function final(messages: ParseMessage[]): Exclude<ParseMessage, { type: "progress" }> {
  const finals = messages.filter((m) => m.type !== "progress");
  expect(finals).toHaveLength(1);
  expect(messages[messages.length - 1]).toBe(finals[0]);
  return finals[0];
}

function layerOf(messages: ParseMessage[]): ParsedLayer {
  const m = final(messages);
  if (m.type !== "done") throw new Error(`expected a layer, got ${JSON.stringify(m)}`);
  return m.layer;
}

function errorOf(messages: ParseMessage[]): string {
  const m = final(messages);
  if (m.type !== "error") throw new Error(`expected an error, got ${JSON.stringify(m)}`);
  return m.message;
}

const props = (f: LineFeature) => f.properties as Record<string, string | number>;
const roads = county.edges.features.filter((f) => String(props(f).MTFCC).startsWith("S"));
const namedRoads = roads.filter((f) => String(props(f).FULLNAME).trim() !== "");
const ranged = (f: LineFeature) =>
  (props(f).LFROMADD !== "" && props(f).LTOADD !== "") || (props(f).RFROMADD !== "" && props(f).RTOADD !== "");

describe("a TIGER/Line EDGES zip", () => {
  let messages: ParseMessage[];
  let layer: ParsedLayer;
  beforeAll(async () => {
    messages = await run(fileOf(shapefileZip(county.edges, "tl_2024_17167_edges"), "tl_2024_17167_edges.zip"));
    layer = layerOf(messages);
  });

  test("is a streets layer whose rows are the named road segments", () => {
    expect(layer.kind).toBe("streets");
    expect(layer.tigerLayer).toBe("EDGES");
    expect(layer.nameField).toBe("FULLNAME");
    expect(layer.fileName).toBe("tl_2024_17167_edges.zip");
    expect(layer.name).toBe("tl_2024_17167_edges");
    expect(layer.features).toBe(namedRoads.length);
    expect(layer.segments).toHaveLength(namedRoads.length);
    expect(layer.boundaries).toEqual([]);
    expect(layer.addressable).toBe(namedRoads.filter(ranged).length);
    expect(layer.addressable).toBeGreaterThan(0);
    expect(layer.addressable).toBeLessThan(layer.features);
    expect(layer.unnamed).toBe(roads.length - namedRoads.length);
    expect(layer.skipped).toBe(county.edges.features.length - roads.length);
    // a row as the server takes it: keys, flat coordinates, ranges
    const first = namedRoads[0];
    const row = layer.segments.find((s) => s.tlid === Number(props(first).TLID))!;
    expect(row.name).toBe(props(first).FULLNAME);
    expect(row.key).toBeTruthy();
    expect(row.coords).toHaveLength(first.geometry.coordinates.length * 2);
    expect(row.coords[0]).toBeCloseTo(first.geometry.coordinates[0][0], 6);
    expect(row.mtfcc).toBe("S1400");
  });

  test("the drawing copy is every road (named or not) as a line with its name and class", () => {
    const drawing = JSON.parse(layer.drawing!) as {
      type: string;
      features: { geometry: { type: string }; properties: { name: string; mtfcc: string } }[];
    };
    expect(drawing.type).toBe("FeatureCollection");
    // a line reaching several chunks (lib/geo/drawing.ts) is in each: every road, each once when counted apart
    const lines = [...new Map(drawing.features.map((f) => [JSON.stringify(f), f])).values()];
    expect(lines).toHaveLength(roads.length);
    expect(lines.every((f) => f.geometry.type === "LineString")).toBe(true);
    expect(lines.filter((f) => f.properties.name === "")).toHaveLength(roads.length - namedRoads.length);
  });

  test("extent and preview: the county's box, its first street names, segments per road class", () => {
    const all = roads.flatMap((f) => f.geometry.coordinates);
    const [w, s, e, n] = layer.bbox!;
    expect(w).toBeCloseTo(Math.min(...all.map((p) => p[0])), 6);
    expect(s).toBeCloseTo(Math.min(...all.map((p) => p[1])), 6);
    expect(e).toBeCloseTo(Math.max(...all.map((p) => p[0])), 6);
    expect(n).toBeCloseTo(Math.max(...all.map((p) => p[1])), 6);
    expect(layer.preview.names.length).toBeGreaterThan(0);
    expect(layer.preview.names.length).toBeLessThanOrEqual(8);
    expect(layer.preview.names[0]).toBe(props(namedRoads[0]).FULLNAME);
    expect(new Set(layer.preview.names).size).toBe(layer.preview.names.length);
    expect(layer.preview.classes).toEqual([{ label: "Local streets", count: roads.length }]);
  });

  test("progress: reading, converting up to every feature, writing; then the layer", () => {
    const stages = messages.filter((m) => m.type === "progress").map((m) => m.stage);
    expect(stages[0]).toBe("reading");
    expect(stages).toContain("converting");
    expect(stages.indexOf("writing")).toBeGreaterThan(stages.lastIndexOf("converting"));
    const converting = messages.filter((m) => m.type === "progress" && m.stage === "converting");
    expect(converting.at(-1)).toMatchObject({
      done: county.edges.features.length,
      total: county.edges.features.length,
    });
  });
});

test("an ADDRFEAT zip is a streets layer too", async () => {
  const addrfeat = syntheticCounty(36, "ADDRFEAT");
  const layer = layerOf(
    await run(fileOf(shapefileZip(addrfeat.edges, "tl_2024_17167_addrfeat"), "tl_2024_17167_addrfeat.zip")),
  );
  expect(layer.kind).toBe("streets");
  expect(layer.tigerLayer).toBe("ADDRFEAT");
  expect(layer.segments.some((s) => s.parityL === "O" || s.parityL === "E")).toBe(true);
});

test("a VTD zip becomes the precincts as areas, with their names, codes and outlines", async () => {
  const layer = layerOf(
    await run(fileOf(shapefileZip(county.precincts, "tl_2020_17167_vtd20"), "tl_2020_17167_vtd20.zip")),
  );
  expect(layer.kind).toBe("boundaries");
  expect(layer.tigerLayer).toBe("VTD");
  expect(layer.nameField).toBe("NAME20");
  expect(layer.segments).toEqual([]);
  expect(layer.features).toBe(county.precincts.features.length);
  expect(layer.boundaries.map((b) => b.name)).toEqual(county.precincts.features.map((f) => f.properties.NAME20));
  expect(layer.boundaries.map((b) => b.code)).toEqual(county.precincts.features.map((f) => f.properties.GEOID20));
  expect(JSON.parse(layer.boundaries[0].geometry)).toMatchObject({ type: "Polygon" });
  expect(layer.preview.names).toEqual(county.precincts.features.map((f) => f.properties.NAME20));
  const drawing = JSON.parse(layer.drawing!) as { features: { properties: { name: string } }[] };
  expect(drawing.features.map((f) => f.properties.name)).toEqual(layer.boundaries.map((b) => b.name));
  expect(layer.fields).toContain("NAMELSAD20");
});

describe("a file that is not a TIGER layer", () => {
  const wards: Collection<PolygonFeature> = {
    type: "FeatureCollection",
    features: county.precincts.features.map((f, i) => ({
      ...f,
      properties: { WARD_NAME: `Ward ${i + 1}`, WARD_NO: i + 1 },
    })),
  };
  const file = () => fileOf(shapefileZip(wards, "city_wards"), "city_wards.zip");

  test("asks for the field holding each area's name, offering its text fields", async () => {
    const m = final(await run(file()));
    expect(m).toEqual({
      type: "chooseNameField",
      message: "This file is not a TIGER/Line streets or boundary layer: choose the field that holds each area's name.",
      fields: ["WARD_NAME"],
    });
  });

  test("with the field chosen, its areas are custom boundaries", async () => {
    const layer = layerOf(await run(file(), "WARD_NAME"));
    expect(layer.kind).toBe("boundaries");
    expect(layer.tigerLayer).toBeNull();
    expect(layer.nameField).toBe("WARD_NAME");
    expect(layer.boundaries.map((b) => b.name)).toEqual(wards.features.map((_, i) => `Ward ${i + 1}`));
  });

  test("a GeoJSON file of such areas asks the same", async () => {
    expect(final(await run(fileOf(JSON.stringify(wards), "wards.geojson"))).type).toBe("chooseNameField");
  });
});

test("a GeoJSON streets file (EDGES fields) is read like the zip", async () => {
  const layer = layerOf(await run(fileOf(JSON.stringify(county.edges), "edges.geojson")));
  expect(layer.kind).toBe("streets");
  expect(layer.features).toBe(namedRoads.length);
  expect(layer.name).toBe("edges");
});

describe("bad files are refused with a clear message and no layer", () => {
  test("a zip without its .dbf", async () => {
    const zip = shapefileZip(county.edges, "tl_2024_17167_edges", { without: ["dbf"] });
    expect(errorOf(await run(fileOf(zip, "tl_2024_17167_edges.zip")))).toBe(
      "tl_2024_17167_edges.shp has no .dbf file beside it (the attributes: names, codes, address ranges). Upload the whole zip as downloaded from the Census Bureau (it holds .shp, .shx, .dbf and .prj files).",
    );
  });

  test("a zip without its .shp", async () => {
    const zip = shapefileZip(county.edges, "tl_2024_17167_edges", { without: ["shp", "shx"] });
    expect(errorOf(await run(fileOf(zip, "edges.zip")))).toContain("This zip has no .shp file (the shapes)");
  });

  test("a projected file (metres, no .prj to convert it) is the wrong projection", async () => {
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
    const zip = shapefileZip(projected, "edges_utm16n", { prj: null });
    const message = errorOf(await run(fileOf(zip, "edges_utm16n.zip")));
    expect(message).toMatch(/^This file's coordinates are not longitude\/latitude \(2\d{5}, 440\d{4}\)/);
    expect(message).toContain("wrong projection");
  });

  test("an empty file", async () => {
    expect(errorOf(await run(fileOf(new Uint8Array(0), "edges.zip")))).toBe(TEXTS.empty);
  });

  test("a file above 300 MB, before it is read", async () => {
    const huge = { name: "state_edges.zip", size: 300 * 1024 * 1024 + 1 } as File;
    expect(errorOf(await run(huge))).toBe("This file is larger than 300 MB. Upload a county or a smaller area.");
  });

  test("a file of another kind", async () => {
    expect(errorOf(await run(fileOf("TLID,FULLNAME\n1,Main St\n", "edges.csv")))).toBe(TEXTS.wrongFile);
  });

  test("a .zip that is not a zip", async () => {
    expect(errorOf(await run(fileOf("TLID,FULLNAME\n1,Main St\n", "edges.zip")))).toContain("not a zip archive");
  });

  test("GeoJSON that is not JSON, or holds no features", async () => {
    expect(errorOf(await run(fileOf("{ nope", "areas.geojson")))).toBe(
      "This file is not GeoJSON: it is not valid JSON.",
    );
    expect(errorOf(await run(fileOf('{"type":"FeatureCollection","features":[]}', "areas.json")))).toBe(
      TEXTS.noFeatures,
    );
  });
});

describe("a PMTiles basemap", () => {
  function pmtilesHeader(bounds: [number, number, number, number], version = 3): Uint8Array {
    const bytes = new Uint8Array(512);
    bytes.set(new TextEncoder().encode("PMTiles"), 0);
    bytes[7] = version;
    const view = new DataView(bytes.buffer);
    bounds.forEach((v, i) => view.setInt32(102 + i * 4, Math.round(v * 1e7), true));
    return bytes;
  }

  test("is checked by its header and taken as it is, with its bounds", async () => {
    const layer = layerOf(await run(fileOf(pmtilesHeader([-89.8, 39.7, -89.6, 39.9]), "springfield.pmtiles")));
    expect(layer).toMatchObject({ kind: "basemap", features: 0, drawing: null, name: "springfield" });
    expect(layer.bbox!.map((v) => Math.round(v * 10) / 10)).toEqual([-89.8, 39.7, -89.6, 39.9]);
  });

  test("another version, or another file named .pmtiles, is refused", async () => {
    expect(errorOf(await run(fileOf(pmtilesHeader([0, 0, 1, 1], 2), "old.pmtiles")))).toBe(TEXTS.notPmtiles);
    expect(errorOf(await run(fileOf("not a basemap at all", "fake.pmtiles")))).toBe(TEXTS.notPmtiles);
  });
});
