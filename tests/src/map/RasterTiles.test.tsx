import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { MapContainer } from "react-leaflet";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { MAP_AUTH_FAILED, MAP_LOAD_FAILED, MAP_LOAD_TIMEOUT_MS, RasterTiles } from "@/lib/map/RasterTiles";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const URL_TEMPLATE = "https://tiles.example.org/{z}/{x}/{y}.png?key=k";

describe("a raster tile source that fails (spec/3 §2.6)", () => {
  let container: HTMLDivElement;
  let root: Root;
  const fetchMock = vi.fn();
  beforeEach(() => {
    vi.useFakeTimers();
    fetchMock.mockReset();
    vi.stubGlobal("fetch", fetchMock);
    container = document.createElement("div");
    document.body.appendChild(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const mount = (onError: (m: string) => void) =>
    act(() =>
      root.render(
        <MapContainer center={[45.5051, -122.675]} zoom={12} style={{ height: 600, width: 800 }}>
          <RasterTiles url={URL_TEMPLATE} attribution="" onError={onError} />
        </MapContainer>,
      ),
    );

  test("a refused key (401/403) is an authentication failure; the probe asks for the centre's tile", async () => {
    fetchMock.mockResolvedValue(new Response("", { status: 403 }));
    const onError = vi.fn();
    mount(onError);
    await act(async () => {
      await Promise.resolve();
      await Promise.resolve();
    });
    expect(fetchMock.mock.calls[0][0]).toBe("https://tiles.example.org/12/652/1465.png?key=k");
    expect(onError).toHaveBeenCalledWith(MAP_AUTH_FAILED);
  });

  test("no tile within 10 s (checked every 100 ms) is a load failure, not before", async () => {
    fetchMock.mockReturnValue(new Promise(() => {}));
    const onError = vi.fn();
    mount(onError);
    act(() => {
      vi.advanceTimersByTime(MAP_LOAD_TIMEOUT_MS - 200);
    });
    expect(onError).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(300);
    });
    expect(onError).toHaveBeenCalledWith(MAP_LOAD_FAILED);
    expect(onError).toHaveBeenCalledTimes(1);
  });
});
