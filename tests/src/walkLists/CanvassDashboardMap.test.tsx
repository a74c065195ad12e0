/**
 * The live dashboard's map in jsdom (Leaflet draws into a canvas jsdom lacks, so what is checked is
 * what it mounts): the turf outline and a marker per door, the no-streets notice linking to Map
 * data, and a door's tooltip saying its result.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { CanvassDashboardMap } from "@/features/walkLists/components/CanvassDashboardMap";
import { byTestId, mountRoot, type MountedRoot } from "../../support/render";

class FakeWorker {
  onmessage = null;
  onerror = null;
  postMessage() {}
  terminate() {}
}

const doors = [
  {
    id: "d1",
    order: 1,
    lat: 40,
    lng: -89,
    label: "101 Oak St",
    result: "contacted" as const,
    attempts: 2,
    lastAt: 1,
    flagged: false,
  },
  {
    id: "d2",
    order: 2,
    lat: 40.001,
    lng: -89,
    label: "103 Oak St",
    result: null,
    attempts: 0,
    lastAt: null,
    flagged: true,
  },
];

/** A 2D context that draws nothing (jsdom has none): every method a no-op, every property settable. */
function fakeContext(): CanvasRenderingContext2D {
  const props: Record<string | symbol, unknown> = {};
  return new Proxy({} as CanvasRenderingContext2D, {
    get: (_, k) => (k in props ? props[k] : () => {}),
    set: (_, k, v) => ((props[k] = v), true),
  });
}

let m: MountedRoot;
beforeEach(() => {
  vi.stubGlobal("Worker", FakeWorker);
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => fakeContext());
  m = mountRoot();
});
afterEach(() => {
  m.unmount();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("CanvassDashboardMap", () => {
  test("mounts with its doors and the no-streets notice", () => {
    m.render(
      <CanvassDashboardMap
        orgMap={{ streets: null, basemapUrl: null, tiles: null }}
        turfArea='{"type":"Polygon","coordinates":[[[-89.01,39.99],[-88.99,39.99],[-88.99,40.01],[-89.01,39.99]]]}'
        doors={doors}
      />,
    );
    expect(byTestId(m.container, "canvass-map")).not.toBeNull();
    expect(byTestId(m.container, "canvass-map.noStreets")!.querySelector("a")!.getAttribute("href")).toBe(
      "/account-settings/map-data",
    );
  });
});
