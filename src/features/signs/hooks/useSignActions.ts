import { useAction, useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { useDebounced } from "@/lib/useDebounced";

/** The signs page: signs due for pickup, grouped (live; skipped unless `enabled`), and deleting a sign. */
export function useSignsPage(enabled: boolean) {
  const pickups = useQuery(api.signs.pickups, enabled ? {} : "skip");
  const removeSign = useMutation(api.signs.remove);
  return { pickups, removeSign };
}

/** Schedule Sign Placement. */
export function useScheduleSign() {
  const schedule = useMutation(api.signs.schedule);
  return { schedule };
}

/** Mark Sign as Removed. */
export function useMarkRemoved() {
  const markRemoved = useMutation(api.signs.markRemoved);
  return { markRemoved };
}

/** Add / Edit Sign Location: create, update, a new campaign, address lookup, and who is editing which field of the edited sign (live). */
export function useSignForm(editId: Id<"signs"> | null) {
  const create = useMutation(api.signs.create);
  const update = useMutation(api.signs.update);
  const createCampaign = useMutation(api.signs.createCampaign);
  const geocode = useAction(api.signs.geocode);
  const editState = useQuery(api.signs.editState, editId ? { id: editId } : "skip");
  return { create, update, createCampaign, geocode, editState };
}

/**
 * Where a typed address is on the organisation's streets (Map data), once the typing stopped:
 * undefined while looking, null when the streets do not place it (or there are none).
 */
export function useStreetPlace(address: string) {
  const typed = useDebounced(address.trim(), 400);
  const place = useQuery(api.mapData.place, typed.length >= 5 ? { address: typed } : "skip");
  if (typed.length < 5) return null;
  if (place === undefined || typed !== address.trim()) return undefined;
  return place.lat !== null && place.lng !== null ? { lat: place.lat, lng: place.lng, street: place.street } : null;
}
