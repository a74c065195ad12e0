import L from "leaflet";
import { PMTiles } from "pmtiles";
import { leafletLayer } from "protomaps-leaflet";
import { useEffect, useRef } from "react";
import { useMap } from "react-leaflet";

type LayerOptions = NonNullable<Parameters<typeof leafletLayer>[0]>;

const PMTILES_FAILED = "The basemap file could not be read: the map shows the offline basemap instead.";

/**
 * A PMTiles basemap file (issue 36: an organisation may upload one) drawn with protomaps-leaflet's
 * "light" flavour. The file is read by byte ranges from its URL and nothing else is fetched: the
 * flavour's labels use the browser's own sans-serif, no web fonts and no sprites. The file's header
 * tells the zooms it holds (deeper zooms are scaled from the last) and its bounds (no tiles are
 * asked for outside them). A file that cannot be read calls `onError`.
 */
export function PmtilesBasemap({
  url,
  attribution,
  onError,
}: {
  url: string;
  /** the file's data credit; protomaps-leaflet's (Protomaps, © OpenStreetMap) when not given */
  attribution?: string;
  onError?(message: string): void;
}) {
  const map = useMap();
  const failed = useRef(onError);
  useEffect(() => {
    failed.current = onError;
  });
  useEffect(() => {
    // protomaps-leaflet extends the global L (leaflet 1.x's UMD build sets it; make sure)
    (globalThis as { L?: typeof L }).L ??= L;
    const archive = new PMTiles(url);
    let live = true;
    let layer: L.Layer | null = null;
    archive
      .getHeader()
      .then((header) => {
        if (!live) return;
        const bounds: L.LatLngBoundsExpression | undefined =
          header.minLat < header.maxLat && header.minLon < header.maxLon
            ? [
                [header.minLat, header.minLon],
                [header.maxLat, header.maxLon],
              ]
            : undefined;
        layer = leafletLayer({
          // protomaps-leaflet only calls getZxy() on it; its types name pmtiles 3's class, this is pmtiles 4's
          url: archive as unknown as LayerOptions["url"],
          flavor: "light",
          lang: "en",
          maxDataZoom: header.maxZoom,
          bounds,
          attribution,
        }) as unknown as L.Layer;
        layer.addTo(map);
      })
      .catch(() => {
        if (live) failed.current?.(PMTILES_FAILED);
      });
    return () => {
      live = false;
      layer?.remove();
    };
  }, [map, url, attribution]);
  return null;
}
