import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { FunctionReturnType } from "convex/server";

export type MapOverview = FunctionReturnType<typeof api.mapData.overview>;
export type MapLayerView = MapOverview["layers"][number];

/** Map data: the organisation's layers and tile source (live for every teammate), deleting a layer, saving the tile source. */
export function useMapData() {
  const overview = useQuery(api.mapData.overview, {});
  const remove = useMutation(api.mapData.remove);
  const setTiles = useMutation(api.mapData.setTiles);
  return { overview, remove, setTiles };
}
