/**
 * What the sign map draws under its markers (issue 36): the organisation's PMTiles basemap, else its
 * raster tiles, else the offline atlas; its streets on top (cut in the street tiles worker); and,
 * when it has no streets layer, the notice that says how to add one.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { FeatureCollection } from "geojson";
import { SignMap } from "@/features/signs/components/SignMap";
import { byTestId, flush, mountRoot, type MountedRoot } from "../../support/render";

/** Workers the page starts (the street tiles worker, the basemap's places) and what they are sent. */
const workers: { url: string; messages: unknown[] }[] = [];
class FakeWorker {
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  private readonly record: { url: string; messages: unknown[] };
  constructor(url: URL | string) {
    this.record = { url: String(url), messages: [] };
    workers.push(this.record);
  }
  postMessage(message: unknown) {
    this.record.messages.push(message);
  }
  terminate() {}
}

const streets: FeatureCollection = {
  type: "FeatureCollection",
  features: [
    {
      type: "Feature",
      geometry: {
        type: "LineString",
        coordinates: [
          [-122.68, 45.5],
          [-122.67, 45.5],
        ],
      },
      properties: { name: "SW Main St", mtfcc: "S1400" },
    },
  ],
};

const noop = () => {};
const base = {
  data: undefined,
  onViewport: noop,
  selected: null,
  popup: null,
  onSelect: noop,
  onClosePopup: noop,
  picking: false,
  onPick: noop,
  focus: null,
  pickedPoint: null,
  onTileError: noop,
  tilesFailed: false,
  visible: true,
};

let m: MountedRoot;
const fetchMock = vi.fn();
beforeEach(() => {
  workers.length = 0;
  fetchMock.mockReset();
  fetchMock.mockReturnValue(new Promise(() => {}));
  vi.stubGlobal("Worker", FakeWorker);
  vi.stubGlobal("fetch", fetchMock);
  m = mountRoot();
});
afterEach(() => {
  m.unmount();
  vi.unstubAllGlobals();
});

const attribution = () => m.container.querySelector(".leaflet-control-attribution");

describe("the sign map's layers", () => {
  test("no streets layer: the notice says how to add one and links to Map data; no offline note", () => {
    m.render(<SignMap {...base} streets={null} mapDataHref="/account-settings?tab=map-data" />);
    const notice = byTestId(m.container, "signs.noStreets")!;
    expect(notice.textContent).toBe("No street map yet. An admin can add streets under Account Settings → Map data.");
    expect(notice.querySelector("a")!.getAttribute("href")).toBe("/account-settings?tab=map-data");
    expect(workers.filter((w) => w.url.includes("streetTiles.worker"))).toEqual([]);
  });

  test("streets not known yet (loading): no notice until the organisation's layers are known", () => {
    m.render(<SignMap {...base} />);
    expect(byTestId(m.container, "signs.noStreets")).toBeNull();
    expect(attribution()).toBeNull();
  });

  test("a streets layer: loaded into the street tiles worker and drawn in its own pane over the base", () => {
    m.render(<SignMap {...base} streets={streets} />);
    const worker = workers.find((w) => w.url.includes("streetTiles.worker"));
    expect(worker).toBeDefined();
    // with the tiles the map shows first (the worker reads their data at once)
    expect(worker!.messages[0]).toEqual({
      id: 1,
      type: "load",
      source: streets,
      view: { z: 12, x0: expect.any(Number), y0: expect.any(Number), x1: expect.any(Number), y1: expect.any(Number) },
    });
    expect(m.container.querySelector(".leaflet-streets-pane")).not.toBeNull();
    expect(byTestId(m.container, "signs.noStreets")).toBeNull();
    // a stored file's URL goes to the worker as it is: the page does not fetch or parse it
    m.render(<SignMap {...base} streets="https://convex.example/api/storage/s1" />);
    const second = workers.filter((w) => w.url.includes("streetTiles.worker")).at(-1)!;
    expect(second.messages[0]).toMatchObject({ type: "load", source: "https://convex.example/api/storage/s1" });
    expect(fetchMock.mock.calls.map((c) => String(c[0]))).not.toContain("https://convex.example/api/storage/s1");
  });

  test("the organisation's raster tiles, with their attribution", () => {
    m.render(
      <SignMap
        {...base}
        streets={streets}
        tiles={{ url: "https://tiles.example.org/{z}/{x}/{y}.png", attribution: "© Example" }}
      />,
    );
    expect(attribution()!.textContent).toContain("© Example");
    expect(m.container.querySelector("img.leaflet-tile")?.getAttribute("src")).toMatch(
      /^https:\/\/tiles\.example\.org\/\d+\/\d+\/\d+\.png$/,
    );
  });

  test("a PMTiles basemap comes first; a file that cannot be read falls back to the raster tiles", async () => {
    let refuse!: (e: Error) => void;
    fetchMock.mockReturnValue(new Promise((_, reject) => (refuse = reject)));
    m.render(
      <SignMap
        {...base}
        basemapUrl="https://convex.example/api/storage/basemap"
        tiles={{ url: "https://tiles.example.org/{z}/{x}/{y}.png", attribution: "© Example" }}
      />,
    );
    await flush();
    // the file's header is read by range from its URL, and no raster tile is asked for meanwhile
    expect(String(fetchMock.mock.calls[0][0])).toBe("https://convex.example/api/storage/basemap");
    expect(m.container.querySelector("img.leaflet-tile")).toBeNull();
    refuse(new Error("network"));
    await flush();
    await flush();
    expect(m.container.querySelector("img.leaflet-tile")).not.toBeNull();
  });
});
