import { useEffect, useRef } from "react";
import { TileLayer, useMap } from "react-leaflet";
import { tileOf } from "@convex/lib/signs/geo";

/** spec/3 §2.6, §9.4: the map service must be ready within 10 s, checked every 100 ms. */
export const MAP_LOAD_TIMEOUT_MS = 10_000;
const MAP_POLL_MS = 100;
export const MAP_LOAD_FAILED = "Google Maps API failed to load";
export const MAP_AUTH_FAILED = "Google Maps authentication failed - check API key and billing";

/**
 * A raster tile source ({z}/{x}/{y} URL template and its attribution: the organisation's setting,
 * Account Settings → Map data). It counts as failed when no tile arrived within the time-out, or
 * when the server refuses a tile (401/403: the key or billing).
 */
export function RasterTiles({
  url,
  attribution,
  onError,
}: {
  url: string;
  attribution: string;
  onError(message: string): void;
}) {
  const map = useMap();
  const loaded = useRef(false);
  useEffect(() => {
    loaded.current = false;
    const started = Date.now();
    const poll = window.setInterval(() => {
      if (loaded.current) window.clearInterval(poll);
      else if (Date.now() - started >= MAP_LOAD_TIMEOUT_MS) {
        window.clearInterval(poll);
        onError(MAP_LOAD_FAILED);
      }
    }, MAP_POLL_MS);
    const c = map.getCenter();
    const t = tileOf(c.lat, c.lng, map.getZoom());
    const probe = url
      .replace("{z}", String(t.z))
      .replace("{x}", String(t.x))
      .replace("{y}", String(t.y))
      .replace("{s}", "a")
      .replace("{r}", "");
    const ctl = new AbortController();
    fetch(probe, { signal: ctl.signal, mode: "cors" })
      .then((res) => {
        if (res.status === 401 || res.status === 403) onError(MAP_AUTH_FAILED);
      })
      .catch(() => {});
    return () => {
      window.clearInterval(poll);
      ctl.abort();
    };
  }, [map, url, onError]);
  return <TileLayer url={url} attribution={attribution} eventHandlers={{ tileload: () => (loaded.current = true) }} />;
}
