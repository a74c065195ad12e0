/** How signs look and how their dates move between the screen and the server. */
import type { Doc } from "@convex/_generated/dataModel";

export type SignStatus = Doc<"signs">["status"];
export type StatusFilter = "All" | SignStatus;
export const STATUS_FILTERS: StatusFilter[] = ["All", "Active", "Scheduled", "Removed"];

/** spec/3 §2.6: green Active, blue Scheduled, gray Removed, red for anything else. */
const MARKER_COLORS: Record<string, string> = { Active: "#16a34a", Scheduled: "#2563eb", Removed: "#6b7280" };
const UNKNOWN_MARKER = "#dc2626";
export const BADGE_COLORS = { Active: "green", Scheduled: "blue", Removed: "gray" } as const;

export function markerColor(status: string): string {
  return MARKER_COLORS[status] ?? UNKNOWN_MARKER;
}

const DAY = 24 * 3600_000;

/** A day input's value (yyyy-mm-dd) for a moment, in the browser's time zone. */
export function dayInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** The start of a day input's day (local), or null when it is not a date. */
export function fromDayInput(value: string, time = "00:00"): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!m || !t) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(t[1]), Number(t[2]));
  return Number.isNaN(d.getTime()) || d.getDate() !== Number(m[3]) ? null : d.getTime();
}

export function addDays(ms: number, days: number): number {
  return ms + days * DAY;
}

export function startOfToday(): number {
  const d = new Date();
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

export function formatDay(ms: number | null): string {
  return ms === null
    ? "—"
    : new Date(ms).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" });
}

export function formatDayTime(ms: number): string {
  return new Date(ms).toLocaleString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });
}

export function formatCoord(n: number): string {
  return n.toFixed(6);
}
