// @vitest-environment node
/**
 * A parsed layer's upload (src/features/mapData/utils/uploadLayer.ts) against fake server calls:
 * the drawing copy first (its type), the record, rows in batches within the server's limits
 * (convex/lib/geo/limits.ts, shared with the server), finish last; a refusal stops it where it is.
 */
import { describe, expect, test, vi } from "vitest";
import type { BoundaryRow, SegmentRow } from "@convex/lib/geo/rows";
import {
  boundaryBatches,
  uploadLayer,
  type UploadCalls,
  type UploadProgress,
} from "@/features/mapData/utils/uploadLayer";
import type { ParsedLayer } from "@/features/mapData/worker/parseLayer.worker";

const segment = (i: number): SegmentRow => ({
  name: `Street ${i}`,
  key: `street ${i}`,
  looseKey: `street ${i}`,
  coords: [0, 0, 1, 1],
  bbox: [0, 0, 1, 1],
});
const area = (i: number, size = 10): BoundaryRow => ({
  name: `Area ${i}`,
  code: null,
  bbox: [0, 0, 1, 1],
  geometry: "x".repeat(size),
});

function parsed(over: Partial<ParsedLayer>): ParsedLayer {
  return {
    kind: "streets",
    tigerLayer: "EDGES",
    fileName: "edges.zip",
    name: "edges",
    nameField: "FULLNAME",
    fields: [],
    segments: [],
    boundaries: [],
    drawing: '{"type":"FeatureCollection","features":[]}',
    features: 0,
    addressable: 0,
    unnamed: 0,
    skipped: 0,
    bbox: [-89.7, 39.7, -89.6, 39.8],
    preview: { names: [], classes: [] },
    ...over,
  };
}

function fakeCalls() {
  const log: string[] = [];
  let stored = 0;
  const calls: UploadCalls = {
    generateUploadUrl: vi.fn(async () => {
      log.push("url");
      return "https://upload.example/1";
    }),
    fetch: vi.fn(async (_url: unknown, init?: RequestInit) => {
      log.push(`post ${(init?.headers as Record<string, string>)["Content-Type"]}`);
      return new Response(JSON.stringify({ storageId: "st1" }), { status: 200 });
    }),
    createLayer: vi.fn(async (args) => {
      log.push(`create ${args.kind} replaces=${args.replaces}`);
      return "layer1" as never;
    }),
    appendSegments: vi.fn(async ({ segments }) => {
      log.push(`segments ${segments.length}`);
      stored += segments.length;
      return { stored };
    }),
    appendBoundaries: vi.fn(async ({ boundaries }) => {
      log.push(`boundaries ${boundaries.length}`);
      stored += boundaries.length;
      return { stored };
    }),
    finish: vi.fn(async () => {
      log.push("finish");
      return null;
    }),
  };
  return { calls, log };
}

describe("uploadLayer", () => {
  test("streets: GeoJSON copy, the record, 500 segments a batch, then finish; progress counts what is stored", async () => {
    const { calls, log } = fakeCalls();
    const segments = Array.from({ length: 1201 }, (_, i) => segment(i));
    const progress: UploadProgress[] = [];
    const layer = parsed({ segments, features: 1201, addressable: 1000 });
    const id = await uploadLayer(calls, layer, new File(["zip"], "edges.zip"), { name: "  ", replaces: null }, (p) =>
      progress.push(p),
    );
    expect(id).toBe("layer1");
    expect(log).toEqual([
      "url",
      "post application/geo+json",
      "create streets replaces=null",
      "segments 500",
      "segments 500",
      "segments 201",
      "finish",
    ]);
    expect(calls.createLayer).toHaveBeenCalledWith({
      storageId: "st1",
      kind: "streets",
      tigerLayer: "EDGES",
      name: "edges",
      fileName: "edges.zip",
      nameField: "FULLNAME",
      features: 1201,
      addressable: 1000,
      bbox: [-89.7, 39.7, -89.6, 39.8],
      replaces: null,
    });
    const body = vi.mocked(calls.fetch).mock.calls[0][1]!.body as Blob;
    expect(await body.text()).toBe(layer.drawing);
    expect(progress.filter((p) => p.stage === "rows").map((p) => p.stored)).toEqual([0, 500, 1000, 1201]);
    expect(progress.at(-1)).toEqual({ stage: "finishing", stored: 1201, features: 1201 });
  });

  test("boundaries: at most 50 areas and 4 MB of outlines a batch; a replacement names the layer it replaces", async () => {
    const { calls, log } = fakeCalls();
    const boundaries = Array.from({ length: 120 }, (_, i) => area(i));
    await uploadLayer(
      calls,
      parsed({ kind: "boundaries", tigerLayer: "VTD", boundaries, features: 120 }),
      new File(["zip"], "vtd.zip"),
      { name: "Precincts", replaces: "old1" as never },
      () => {},
    );
    expect(log).toEqual([
      "url",
      "post application/geo+json",
      "create boundaries replaces=old1",
      "boundaries 50",
      "boundaries 50",
      "boundaries 20",
      "finish",
    ]);
    const big = Array.from({ length: 10 }, (_, i) => area(i, 900 * 1024));
    expect(boundaryBatches(big).map((b) => b.length)).toEqual([4, 4, 2]);
    expect(boundaryBatches(big).every((b) => b.reduce((n, r) => n + r.geometry.length, 0) <= 4 * 1024 * 1024)).toBe(
      true,
    );
  });

  test("a basemap: the file itself as PMTiles, no rows, no finish (the server readies it on hand-in)", async () => {
    const { calls, log } = fakeCalls();
    const file = new File(["PMTiles..."], "base.pmtiles");
    await uploadLayer(
      calls,
      parsed({ kind: "basemap", tigerLayer: null, nameField: null, drawing: null }),
      file,
      { name: "Base", replaces: null },
      () => {},
    );
    expect(log).toEqual(["url", "post application/vnd.pmtiles", "create basemap replaces=null"]);
    expect(vi.mocked(calls.fetch).mock.calls[0][1]!.body).toBe(file);
  });

  test("a refused batch stops the upload there: no further batch, no finish, the refusal thrown as it came", async () => {
    const { calls, log } = fakeCalls();
    const refusal = Object.assign(new Error("refused"), {
      data: { code: "VALIDATION_ERROR", message: "At most 500 segments per batch." },
    });
    vi.mocked(calls.appendSegments).mockResolvedValueOnce({ stored: 500 }).mockRejectedValueOnce(refusal);
    const segments = Array.from({ length: 1500 }, (_, i) => segment(i));
    await expect(
      uploadLayer(
        calls,
        parsed({ segments, features: 1500 }),
        new File(["z"], "e.zip"),
        { name: "", replaces: null },
        () => {},
      ),
    ).rejects.toBe(refusal);
    expect(calls.appendSegments).toHaveBeenCalledTimes(2);
    expect(calls.finish).not.toHaveBeenCalled();
    expect(log).not.toContain("finish");
  });

  test("storage refusing the file stops before any record", async () => {
    const { calls } = fakeCalls();
    vi.mocked(calls.fetch).mockResolvedValueOnce(new Response("", { status: 413 }));
    await expect(
      uploadLayer(
        calls,
        parsed({ segments: [segment(1)], features: 1 }),
        new File(["z"], "e.zip"),
        { name: "", replaces: null },
        () => {},
      ),
    ).rejects.toThrow("The file could not be stored. Please try again.");
    expect(calls.createLayer).not.toHaveBeenCalled();
  });
});
