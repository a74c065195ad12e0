import { useQuery } from "convex/react";
import { useRef } from "react";
import { api } from "@convex/_generated/api";
import type { Bounds } from "@convex/lib/signs/geo";
import type { StatusFilter } from "../utils/signDisplay";

export type MapViewport = { bounds: Bounds; zoom: number };
export type SignMapData = (typeof api.signs.mapView)["_returnType"];

/**
 * The live signs of a viewport (model: points or per-tile counts). While a new viewport loads,
 * the last answer stays on screen so panning never blanks the map.
 */
export function useSignMap(viewport: MapViewport | null, status: StatusFilter, enabled: boolean) {
  const data = useQuery(
    api.signs.mapView,
    enabled && viewport ? { ...viewport.bounds, zoom: viewport.zoom, status } : "skip",
  );
  const last = useRef<SignMapData | undefined>(undefined);
  if (data !== undefined) last.current = data;
  return { data: data ?? last.current, loading: data === undefined };
}
