import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { FunctionReturnType } from "convex/server";

export type MapOverview = FunctionReturnType<typeof api.mapData.overview>;
export type MapLayerView = MapOverview["layers"][number];
export type TileSettings = FunctionReturnType<typeof api.mapData.tileSettings>;

/** Map data: the organisation's layers and tile source (live for every teammate), deleting a layer. */
export function useMapData() {
  const overview = useQuery(api.mapData.overview, {});
  const remove = useMutation(api.mapData.remove);
  return { overview, remove };
}

/** The tile source's form (admins): its saved values and who saved them, live, and saving changed fields. */
export function useTileSource() {
  const settings = useQuery(api.mapData.tileSettings, {});
  const setTiles = useMutation(api.mapData.setTiles);
  return { settings, setTiles };
}
