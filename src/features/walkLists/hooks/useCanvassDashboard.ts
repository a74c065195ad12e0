import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

export type CanvassBoard = (typeof api.canvass.dashboard)["_returnType"];
export type DoorState = (typeof api.canvass.doorStatesOf)["_returnType"][number];
export type ListMap = NonNullable<(typeof api.canvassDashboard.listMap)["_returnType"]>;

/**
 * The organiser's live dashboard of one list (null: not allowed, nothing is asked): its doors and
 * turf (null once the list is gone: the figures are then not asked for), the figures, canvassers,
 * answers and flags, and each door's last result, all live as canvassers' results arrive.
 */
export function useCanvassDashboard(listId: Id<"walkLists"> | null) {
  const map = useQuery(api.canvassDashboard.listMap, listId ? { listId } : "skip");
  // asked for only while the list exists (a deleted list's figures would fail the page)
  const live = listId && map ? { listId } : "skip";
  const board = useQuery(api.canvass.dashboard, live);
  const states = useQuery(api.canvass.doorStatesOf, live);
  return { map, board, states };
}
