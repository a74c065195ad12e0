import { useMutation, useQuery } from "convex/react";
import { useMemo, useRef } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { TurfFilters } from "@convex/tables/walkLists";
import { useDebounced } from "@/lib/useDebounced";

export type WalkListRow = (typeof api.walkLists.list)["_returnType"][number];
export type WalkListDetail = (typeof api.walkLists.get)["_returnType"];
export type TurfRow = (typeof api.turfs.turfs)["_returnType"][number];
export type TurfOptions = (typeof api.walkLists.options)["_returnType"];
export type DoorsView = (typeof api.turfs.doorsInView)["_returnType"];
export type Bounds = { west: number; south: number; east: number; north: number };

/** The walk lists the member sees (live: progress, status and canvassers as teammates change them). */
export function useWalkLists() {
  return useQuery(api.walkLists.list, {});
}

/** One list with its doors in walking order (live). */
export function useWalkList(id: Id<"walkLists"> | null) {
  return useQuery(api.walkLists.get, id ? { id } : "skip");
}

/** The turf-cutting screen's live data (organisers only). */
export function useTurfData(enabled: boolean) {
  const overview = useQuery(api.turfs.overview, enabled ? {} : "skip");
  const turfs = useQuery(api.turfs.turfs, enabled ? {} : "skip");
  const options = useQuery(api.walkLists.options, enabled ? {} : "skip");
  const runs = useQuery(api.turfs.autoCutRuns, enabled ? {} : "skip");
  return { overview, turfs, options, runs };
}

/** A boundary layer's areas (to cut from a district). */
export function useBoundaries(layerId: Id<"mapLayers"> | null) {
  return useQuery(api.turfs.boundaries, layerId ? { layerId } : "skip");
}

/**
 * The live door and voter count of the area being drawn (or a boundary): asked again a moment after
 * each new corner; the last answer stays while the next loads.
 */
export function useAreaCount(points: number[][] | null, boundaryId: Id<"boundaries"> | null, filters: TurfFilters) {
  // a shape still being laid out can hold a corner the map could not place (not a number): not asked
  const drawable = points && points.length >= 3 && points.every((pt) => pt.every(Number.isFinite));
  const area = boundaryId ? { boundaryId } : drawable ? { points } : null;
  // debounced by value (a new object each render would restart the timer forever)
  const key = useDebounced(area ? JSON.stringify({ ...area, filters }) : null, 120);
  const args = useMemo(() => (key ? (JSON.parse(key) as typeof area & { filters: TurfFilters }) : null), [key]);
  const count = useQuery(api.turfs.countArea, args ?? "skip");
  const last = useRef<typeof count>(undefined);
  if (!args) last.current = undefined;
  else if (count !== undefined) last.current = count;
  return args ? (count ?? last.current) : null;
}

/** The doors in the map's view (points or per-cell counts); the last answer stays while panning. */
export function useDoorsInView(bounds: Bounds | null, enabled: boolean) {
  const data = useQuery(api.turfs.doorsInView, enabled && bounds ? bounds : "skip");
  const last = useRef<DoorsView | undefined>(undefined);
  if (data !== undefined) last.current = data;
  return data ?? last.current;
}

export function useTurfDoors(turfId: Id<"turfs"> | null) {
  return useQuery(api.turfs.turfDoors, turfId ? { turfId } : "skip");
}

export function useTurfActions() {
  return {
    cut: useMutation(api.turfs.cutTurf),
    split: useMutation(api.turfs.splitTurf),
    merge: useMutation(api.turfs.mergeTurfs),
    undo: useMutation(api.turfs.undoTurf),
    autoCut: useMutation(api.turfs.autoCut),
    buildDoors: useMutation(api.turfs.buildDoors),
  };
}

export function useWalkListActions() {
  return {
    create: useMutation(api.walkLists.create),
    update: useMutation(api.walkLists.update),
    remove: useMutation(api.walkLists.remove),
  };
}
