/**
 * /account-settings/map-data with its data hooks mocked: admins only; the live layer list (kind,
 * source, counts, status "Loading n of m" / "Ready", Replace and Delete); Delete asks first; a
 * parsed file is uploaded only once its preview is confirmed; the tile source shows the server's
 * refusal; geocoding's progress, counts per quality and "Geocode voters again"; accessible.
 */
import { act } from "react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  allByTestId,
  button,
  byTestId,
  click,
  expectNoAxeViolations,
  flush,
  mountRoot,
  type,
  type MountedRoot,
} from "../../support/render";

const state = {
  permissions: new Set<string>(),
  overview: undefined as unknown,
  geocode: undefined as unknown,
  parser: { status: "idle" } as unknown,
  remove: vi.fn(async (_args: unknown) => null),
  setTiles: vi.fn(async (_args: unknown): Promise<null> => null),
  tileSettings: { tileUrl: "", tileAttribution: "", editState: { fields: {}, deleted: null } } as unknown,
  run: vi.fn(async (_args: unknown) => "run1"),
  upload: vi.fn(async (..._args: unknown[]) => "layer9"),
  parse: vi.fn(),
  reset: vi.fn(),
};

vi.mock("@/session/ViewerProvider", () => ({ useViewer: () => ({ can: (p: string) => state.permissions.has(p) }) }));
vi.mock("@/features/mapData/hooks/useMapData", () => ({
  useMapData: () => ({ overview: state.overview, remove: state.remove }),
  useTileSource: () => ({ settings: state.tileSettings, setTiles: state.setTiles }),
}));
vi.mock("@/features/mapData/hooks/useGeocoding", () => ({
  useGeocoding: () => ({ status: state.geocode, run: state.run }),
}));
vi.mock("@/features/mapData/hooks/useLayerUpload", () => ({
  useLayerUpload: () => ({ upload: state.upload, progress: null }),
}));
vi.mock("@/features/mapData/hooks/useLayerParser", () => ({
  useLayerParser: () => ({ state: state.parser, parse: state.parse, reset: state.reset }),
}));
vi.mock("@/ui/toast", () => ({
  toast: { success: vi.fn(), failure: vi.fn() },
  errorMessage: (e: { data?: { message?: string } }) => e.data?.message ?? "An unexpected error occurred.",
}));

const { MapDataPage } = await import("@/features/mapData/MapDataPage");

const AT = Date.UTC(2026, 4, 3, 15, 30);
const STREETS = {
  id: "l1",
  kind: "streets",
  tigerLayer: "EDGES",
  name: "Sangamon streets",
  fileName: "tl_2024_17167_edges.zip",
  nameField: "FULLNAME",
  status: "ready",
  size: 2_400_000,
  stored: 1201,
  features: 1201,
  addressable: 1000,
  bbox: [-89.7, 39.7, -89.6, 39.8],
  createdByName: "Ada Lovelace",
  createdAt: AT,
  url: "https://files.example/l1",
};
const PRECINCTS = {
  ...STREETS,
  id: "l2",
  kind: "boundaries",
  tigerLayer: "VTD",
  name: "Precincts",
  fileName: "tl_2020_17167_vtd20.zip",
  nameField: "NAME20",
  status: "loading",
  stored: 50,
  features: 120,
  addressable: 0,
  url: null,
};
const COUNTS = { exact: 900, interpolated: 80, streetOnly: 12, zipCentroid: 5, failed: 3 };

const text = (el: Element | null | undefined) => el?.textContent ?? "";

describe("MapDataPage", () => {
  let r: MountedRoot;
  beforeEach(() => {
    r = mountRoot();
    state.permissions = new Set(["organization.manage", "voters.manage"]);
    state.overview = { layers: [PRECINCTS, STREETS], tiles: null };
    state.geocode = { hasStreets: true, run: null };
    state.parser = { status: "idle" };
    state.tileSettings = { tileUrl: "", tileAttribution: "", editState: { fields: {}, deleted: null } };
    for (const f of [state.remove, state.setTiles, state.run, state.upload, state.parse, state.reset]) f.mockClear();
  });
  afterEach(() => r.unmount());

  test("members without organization.manage get the refusal, not the screen", () => {
    state.permissions = new Set(["voters.manage"]);
    r.render(<MapDataPage />, "/account-settings/map-data");
    expect(byTestId(r.container, "noPermission")).not.toBeNull();
    expect(byTestId(r.container, "mapData.layers")).toBeNull();
  });

  test("the layers, newest first: kind, source, counts, who and when, status; Replace only when ready", async () => {
    r.render(<MapDataPage />, "/account-settings/map-data");
    expect(r.container.querySelector("h1")?.textContent).toBe("Map data");
    const layers = allByTestId(r.container, "mapData.layer");
    expect(layers.map((l) => text(byTestId(l, "mapData.layer.name")))).toEqual(["Precincts", "Sangamon streets"]);
    expect(layers.map((l) => text(byTestId(l, "mapData.layer.status")))).toEqual(["Loading 50 of 120", "Ready"]);
    expect(layers.map((l) => text(byTestId(l, "mapData.layer.counts")))).toEqual([
      "120 areas",
      "1,201 segments, 1,000 with address ranges",
    ]);
    expect(text(layers[0])).toContain("Voting districts (VTD)");
    expect(text(layers[1])).toContain("TIGER/Line EDGES");
    expect(text(layers[1])).toMatch(/added by Ada Lovelace on May 3, 2026/);
    expect(button(layers[0], "Replace Precincts")).toBeUndefined();
    expect(button(layers[0], "Delete Precincts")).toBeDefined();
    expect(button(layers[1], "Replace Sangamon streets")).toBeDefined();
    await expectNoAxeViolations(r.container);
  });

  test("no layers yet: says what to add", () => {
    state.overview = { layers: [], tiles: null };
    r.render(<MapDataPage />, "/account-settings/map-data");
    expect(text(byTestId(r.container, "mapData.empty"))).toMatch(/^No map data yet\. Add a TIGER\/Line streets zip/);
  });

  test("Delete asks first; only the confirmation deletes, and only that layer", async () => {
    r.render(<MapDataPage />, "/account-settings/map-data");
    click(button(r.container, "Delete Sangamon streets"));
    const dialog = document.body.querySelector("[role='alertdialog']");
    expect(text(dialog)).toContain("Delete map layer?");
    expect(text(dialog)).toContain("“Sangamon streets” (1,201 segments, 1,000 with address ranges) will be deleted");
    expect(state.remove).not.toHaveBeenCalled();
    click(button(dialog!, "Cancel"));
    await flush();
    expect(state.remove).not.toHaveBeenCalled();
    click(button(r.container, "Delete Sangamon streets"));
    click(button(document.body.querySelector("[role='alertdialog']")!, "Delete layer"));
    await flush();
    expect(state.remove).toHaveBeenCalledTimes(1);
    expect(state.remove).toHaveBeenCalledWith({ layerId: "l1" });
  });

  test("a parsed file is previewed and uploaded only when confirmed", async () => {
    const file = new File(["zip"], "tl_2024_17167_edges.zip");
    const layer = {
      kind: "streets",
      tigerLayer: "EDGES",
      fileName: file.name,
      name: "tl_2024_17167_edges",
      nameField: "FULLNAME",
      fields: ["FULLNAME"],
      segments: [],
      boundaries: [],
      drawing: "{}",
      features: 1201,
      addressable: 1000,
      unnamed: 3,
      skipped: 4,
      bbox: [-89.7, 39.7, -89.6, 39.8],
      preview: { names: ["N 1st St", "N 2nd St"], classes: [{ label: "Local streets", count: 1204 }] },
    };
    state.parser = { status: "ready", file, layer };
    r.render(<MapDataPage />, "/account-settings/map-data");
    expect(text(byTestId(r.container, "mapData.preview.counts"))).toBe("1,201 segments, 1,000 with address ranges");
    expect(text(byTestId(r.container, "mapData.preview.classes"))).toBe("Local streets: 1,204");
    expect(text(byTestId(r.container, "mapData.preview.names"))).toBe("N 1st St, N 2nd St");
    expect(state.upload).not.toHaveBeenCalled();
    type(r.container.querySelector<HTMLInputElement>("[data-testid='mapData.preview'] input")!, "County streets");
    await act(async () => {
      button(r.container, "Upload")!.click();
      await Promise.resolve();
    });
    expect(state.upload).toHaveBeenCalledWith(layer, file, { name: "County streets", replaces: null });
    await expectNoAxeViolations(r.container);
  });

  test("a refused file shows its message; a file that is not a TIGER layer asks for its name field", () => {
    const file = new File(["zip"], "edges.zip");
    state.parser = { status: "error", file, message: "edges.shp has no .dbf file beside it" };
    r.render(<MapDataPage />, "/account-settings/map-data");
    expect(text(byTestId(r.container, "mapData.parseError"))).toBe("edges.shp has no .dbf file beside it");
    state.parser = {
      status: "chooseNameField",
      file,
      message: "This file is not a TIGER/Line streets or boundary layer",
      fields: ["WARD"],
    };
    r.render(<MapDataPage />, "/account-settings/map-data");
    expect(text(byTestId(r.container, "mapData.chooseNameField"))).toContain("not a TIGER/Line");
    expect(button(r.container, "Continue")?.disabled).toBe(true);
  });

  test("geocoding: progress while running, voters per quality, the button disabled meanwhile", async () => {
    state.geocode = {
      hasStreets: true,
      run: {
        id: "g1",
        status: "running",
        reason: "a new streets layer",
        processed: 1234,
        total: 5000,
        counts: COUNTS,
        startedAt: AT,
        finishedAt: null,
      },
    };
    r.render(<MapDataPage />, "/account-settings/map-data");
    expect(text(byTestId(r.container, "mapData.geocoding.status"))).toBe("Placing voters: 1,234 of 5,000");
    expect(
      ["exact", "interpolated", "streetOnly", "zipCentroid", "failed"].map((k) =>
        text(byTestId(r.container, `mapData.quality.${k}.value`)),
      ),
    ).toEqual(["900", "80", "12", "5", "3"]);
    expect(text(byTestId(r.container, "mapData.quality.zipCentroid"))).toContain("ZIP centroid");
    expect(button(r.container, "Geocode voters again")?.disabled).toBe(true);
    await expectNoAxeViolations(r.container);
  });

  test("geocoding done: Geocode voters again starts a run; without voters.manage there is no button", async () => {
    state.geocode = {
      hasStreets: true,
      run: {
        id: "g1",
        status: "done",
        reason: "a new streets layer",
        processed: 1000,
        total: 1000,
        counts: COUNTS,
        startedAt: AT,
        finishedAt: AT,
      },
    };
    r.render(<MapDataPage />, "/account-settings/map-data");
    expect(text(byTestId(r.container, "mapData.geocoding.status"))).toMatch(/^1,000 voters placed on May 3, 2026/);
    click(button(r.container, "Geocode voters again"));
    await flush();
    expect(state.run).toHaveBeenCalledTimes(1);
    state.permissions = new Set(["organization.manage"]);
    r.render(<MapDataPage />, "/account-settings/map-data");
    expect(button(r.container, "Geocode voters again")).toBeUndefined();
  });

  test("no streets yet: geocoding says what is missing", () => {
    state.geocode = { hasStreets: false, run: null };
    r.render(<MapDataPage />, "/account-settings/map-data");
    expect(text(byTestId(r.container, "mapData.geocoding.status"))).toBe(
      "No street map yet: add a streets layer to place voters at their addresses.",
    );
    expect(button(r.container, "Geocode voters again")?.disabled).toBe(true);
  });

  test("the tile source: saved values shown, the server's refusal shown under the form", async () => {
    state.overview = { layers: [], tiles: { url: "https://t.example/{z}/{x}/{y}.png", attribution: "© T" } };
    state.tileSettings = {
      tileUrl: "https://t.example/{z}/{x}/{y}.png",
      tileAttribution: "© T",
      editState: { fields: {}, deleted: null },
    };
    r.render(<MapDataPage />, "/account-settings/map-data");
    const form = byTestId(r.container, "mapData.tiles")!;
    const [url, attribution] = [...form.querySelectorAll("input")];
    expect(url.value).toBe("https://t.example/{z}/{x}/{y}.png");
    expect(attribution.value).toBe("© T");
    expect(button(form, "Save tile source")?.disabled).toBe(true);
    state.setTiles.mockRejectedValueOnce({
      data: { code: "VALIDATION_ERROR", message: "Enter a tile URL with {z}, {x} and {y}" },
    });
    type(url, "https://t.example/tiles");
    click(button(form, "Save tile source"));
    await flush();
    // only the changed field, with the value it started from
    expect(state.setTiles).toHaveBeenCalledWith({
      edits: [{ field: "tileUrl", base: "https://t.example/{z}/{x}/{y}.png", value: "https://t.example/tiles" }],
    });
    expect(text(byTestId(r.container, "mapData.tiles.error"))).toBe("Enter a tile URL with {z}, {x} and {y}");
    // the typed URL survives the refusal
    expect(url.value).toBe("https://t.example/tiles");
  });

  test("the tile source: a teammate's save arrives in the form without losing what the admin typed", async () => {
    state.overview = { layers: [], tiles: null };
    state.tileSettings = { tileUrl: "", tileAttribution: "", editState: { fields: {}, deleted: null } };
    r.render(<MapDataPage />, "/account-settings/map-data");
    const form = () => byTestId(r.container, "mapData.tiles")!;
    type(form().querySelectorAll("input")[0], "https://mine.example/{z}/{x}/{y}.png");
    // Grace saved an attribution meanwhile
    state.tileSettings = {
      tileUrl: "",
      tileAttribution: "© Grace",
      editState: { fields: { tileAttribution: { userId: "u2", name: "Grace Hopper", at: 1 } }, deleted: null },
    };
    r.rerender(<MapDataPage />);
    const [url, attribution] = [...form().querySelectorAll("input")];
    expect(url.value).toBe("https://mine.example/{z}/{x}/{y}.png");
    expect(attribution.value).toBe("© Grace");
  });
});
