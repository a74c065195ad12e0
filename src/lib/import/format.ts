/** Display rules of Import History (spec/1 §9) and the live progress figures. */
import type { Infer } from "convex/values";
import type { vImportStatus } from "@convex/tables/imports";

/** An in_progress import with no batch for this long is shown as interrupted (resumable or deletable). */
export const STALE_IMPORT_MS = 2 * 60 * 1000;

export type ImportStatus = Infer<typeof vImportStatus>;
export type DisplayStatus = ImportStatus | "interrupted";

export function displayStatus(status: ImportStatus, updatedAt: number, now: number): DisplayStatus {
  return status === "in_progress" && now - updatedAt > STALE_IMPORT_MS ? "interrupted" : status;
}

export const STATUS_COLORS: Record<DisplayStatus, "green" | "red" | "yellow" | "gray" | "orange"> = {
  completed: "green",
  failed: "red",
  in_progress: "yellow",
  deleted: "gray",
  cancelled: "orange",
  interrupted: "orange",
};

export function successRate(imported: number, total: number): number {
  return total > 0 ? (imported / total) * 100 : 0;
}

/** above 90% green, above 70% orange, otherwise red */
export function successRateColor(rate: number): "green" | "orange" | "red" {
  return rate > 90 ? "green" : rate > 70 ? "orange" : "red";
}

/** "Ns", or "Mm Ns" from a minute on. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
}

/** Rows per second and remaining seconds from the import document's live counters. */
export function progressFigures(p: {
  processed: number;
  startedAt: number;
  updatedAt: number;
  total: number | null;
  bytesDone?: number;
  bytesTotal?: number;
}) {
  const elapsed = Math.max(1, p.updatedAt - p.startedAt) / 1000;
  const rate = p.processed / elapsed;
  let fraction: number | null = null;
  if (p.total && p.total > 0) fraction = Math.min(1, p.processed / p.total);
  else if (p.bytesTotal && p.bytesTotal > 0 && p.bytesDone !== undefined)
    fraction = Math.min(1, p.bytesDone / p.bytesTotal);
  const eta = fraction && fraction > 0 ? (elapsed / fraction) * (1 - fraction) : null;
  return { rate, fraction, etaSeconds: eta };
}
