/** How the Map data screen writes a layer's kind, source, status and counts. */
import type { TigerLayer } from "@convex/lib/geo/tiger";

const n = (x: number) => x.toLocaleString("en-US");

export const KIND_LABELS = { streets: "Streets", boundaries: "Boundaries", basemap: "Basemap (PMTiles)" } as const;

/** What each TIGER/Line layer is, as the list names it. */
const TIGER_LABELS: Record<TigerLayer | "custom", string> = {
  EDGES: "TIGER/Line EDGES",
  ADDRFEAT: "TIGER/Line ADDRFEAT",
  VTD: "Voting districts (VTD)",
  SLDU: "State senate districts (SLDU)",
  SLDL: "State house districts (SLDL)",
  CD: "Congressional districts (CD)",
  COUNTY: "Counties",
  PLACE: "Places (cities and towns)",
  custom: "Custom areas",
};

export function sourceLabel(tigerLayer: TigerLayer | "custom" | null): string | null {
  return tigerLayer ? TIGER_LABELS[tigerLayer] : null;
}

/** "Ready", or "Loading 500 of 1,234" while its rows arrive. */
export function statusText(layer: { status: "loading" | "ready" | "deleting"; stored: number; features: number }) {
  if (layer.status === "ready") return "Ready";
  if (layer.status === "deleting") return "Deleting";
  return `Loading ${n(layer.stored)} of ${n(layer.features)}`;
}

/** "1,234 segments, 1,200 with address ranges" / "6 areas" / "" (a basemap). */
export function countsText(layer: {
  kind: "streets" | "boundaries" | "basemap";
  features: number;
  addressable: number;
}) {
  if (layer.kind === "streets")
    return `${n(layer.features)} ${layer.features === 1 ? "segment" : "segments"}, ${n(layer.addressable)} with address ranges`;
  if (layer.kind === "boundaries") return `${n(layer.features)} ${layer.features === 1 ? "area" : "areas"}`;
  return "";
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function percent(done: number, total: number): number {
  return total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
}

/** The geocoder's qualities as the screen names them, with their counters. */
export const QUALITY_CARDS = [
  { key: "exact", label: "Exact range" },
  { key: "interpolated", label: "Interpolated" },
  { key: "streetOnly", label: "Street only" },
  { key: "zipCentroid", label: "ZIP centroid" },
  { key: "failed", label: "Failed" },
] as const;

export { n as formatCount };
