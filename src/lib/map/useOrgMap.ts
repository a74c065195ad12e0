import { useQuery } from "convex/react";
import { useMemo } from "react";
import { api } from "@convex/_generated/api";

export type OrgMap = {
  /** the stored GeoJSON of the ready streets layer; null: none; undefined: not known yet */
  streets: string | null | undefined;
  /** the ready PMTiles basemap file, if any */
  basemapUrl: string | null;
  tiles: { url: string; attribution: string } | null;
};

/**
 * What every map of the organisation draws (Account Settings → Map data): its streets, its basemap
 * and its tile source, live, so a layer a teammate adds appears without a reload. Shared plumbing of
 * the maps (signs now; districts and walk lists next).
 */
export function useOrgMap(): OrgMap {
  const overview = useQuery(api.mapData.overview, {});
  return useMemo(() => {
    if (!overview) return { streets: undefined, basemapUrl: null, tiles: null };
    const ready = (kind: "streets" | "basemap") =>
      overview.layers.find((l) => l.kind === kind && l.status === "ready" && l.url)?.url ?? null;
    return { streets: ready("streets"), basemapUrl: ready("basemap"), tiles: overview.tiles };
  }, [overview]);
}
