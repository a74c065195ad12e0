/**
 * A list's doors as the canvasser sees them: each door's result (the server's state, or the one
 * recorded on this device since, whichever is later), the doors still to knock, the nearest ones.
 */
import { RESULT_LABELS, type ResultCode } from "@convex/lib/canvass";
import { metres } from "@convex/lib/turf/geometry";
import { currentTimeZone, formatDateTime } from "@/lib/dateTime";
import type { BundleDoor, DoorMark, DoorState } from "./store";

export type ShownState = {
  result: ResultCode;
  at: number;
  /** recorded on this device and not yet in the server's state */
  local: boolean;
};

/** Each door's latest result: the server's state or this device's mark, whichever is later. */
export function shownStates(states: DoorState[], marks: DoorMark[]): Map<string, ShownState> {
  const out = new Map<string, ShownState>();
  for (const s of states) out.set(s.doorId, { result: s.lastResult, at: s.lastAt, local: false });
  for (const m of marks) {
    const had = out.get(m.doorId);
    if (!had || m.at >= had.at) out.set(m.doorId, { result: m.result, at: m.at, local: true });
  }
  return out;
}

/** How a door is named to the canvasser: its address (and unit), or its place in the walk when addresses are hidden. */
export function doorName(door: Pick<BundleDoor, "address" | "unit" | "order">): string {
  if (!door.address) return `Door ${door.order}`;
  return door.unit ? `${door.address}, Apt ${door.unit}` : door.address;
}

/** "12 Oak St · Not Home": an action in the lists the canvasser reads. */
export function actionLabel(door: Pick<BundleDoor, "address" | "unit" | "order">, result: ResultCode): string {
  return `${doorName(door)} · ${RESULT_LABELS[result]}`;
}

/** Distance in words: "80 m", "1.2 km". */
export function distanceText(m: number): string {
  return m < 1000 ? `${Math.round(m / 10) * 10} m` : `${(m / 1000).toFixed(1)} km`;
}

/**
 * The doors nearest a point that are still to knock (no result yet) and not held by a teammate,
 * nearest first, without `except` (the door the canvasser stands at).
 */
export function nearestOpenDoors(
  doors: BundleDoor[],
  shown: Map<string, ShownState>,
  from: { lat: number; lng: number },
  n: number,
  except: string | null = null,
): { door: BundleDoor; metres: number }[] {
  return doors
    .filter((d) => d.id !== except && !shown.has(d.id) && d.claim !== "other")
    .map((door) => ({ door, metres: metres(from.lat, from.lng, door.lat, door.lng) }))
    .sort((a, b) => a.metres - b.metres || a.door.order - b.door.order)
    .slice(0, n);
}

/** The bounding box of the doors, [west, south, east, north] (null without doors). */
export function doorsBox(doors: { lat: number; lng: number }[]): [number, number, number, number] | null {
  if (doors.length === 0) return null;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const d of doors) {
    w = Math.min(w, d.lng);
    e = Math.max(e, d.lng);
    s = Math.min(s, d.lat);
    n = Math.max(n, d.lat);
  }
  return [w, s, e, n];
}

/** A time the canvasser reads at a glance: "3:13 PM" today, the date too on another day (the user's time zone). */
export function timeText(ms: number, now = Date.now()): string {
  const timeZone = currentTimeZone();
  const day = (t: number) => new Date(t).toLocaleDateString("en-US", { timeZone });
  return day(ms) === day(now)
    ? new Date(ms).toLocaleTimeString("en-US", { timeZone, hour: "numeric", minute: "2-digit" })
    : formatDateTime(ms, timeZone);
}
