/**
 * The live canvass dashboard's words and colours: each result's colour on the map and in its
 * legend, data-quality flags joined to their canvasser and door, rates and "last activity".
 */
import { RESULT_CODES, RESULT_LABELS, type FlagKind, type ResultCode } from "@convex/lib/canvass";
import { formatDateTime } from "@/lib/dateTime";
import type { CanvassBoard, DoorState, ListMap } from "../hooks/useCanvassDashboard";

/** A door's colour by its last result (the map's markers and the legend's swatches). */
export const RESULT_COLORS: Record<ResultCode, string> = {
  contacted: "#15803d",
  not_home: "#eab308",
  come_back: "#2563eb",
  refused: "#dc2626",
  moved: "#9333ea",
  deceased: "#1f2937",
  inaccessible: "#ea580c",
};
/** A door without a result yet: white with a grey edge. */
export const NOT_KNOCKED = { fill: "#ffffff", edge: "#6b7280" } as const;
/** The ring around a door with a data-quality flag. */
export const FLAG_RING = "#db2777";

const FLAG_LABELS: Record<FlagKind, string> = {
  far: "Far from the door",
  fast: "Doors under 30 s apart",
  rate: "High contact rate",
};

/** "45%" (a contact rate, 0–1). */
export function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** When something last happened, in words that stay short: "just now", "5 min ago", "2 h ago", else the date. */
export function ago(at: number | null, now: number): string {
  if (at === null) return "No activity yet";
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return "just now";
  if (s < 3_600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3_600)} h ago`;
  return formatDateTime(at);
}

export type DoorPoint = {
  id: string;
  order: number;
  lat: number;
  lng: number;
  /** the address, or "Door 12" for members who may not see addresses */
  label: string;
  result: ResultCode | null;
  attempts: number;
  lastAt: number | null;
  flagged: boolean;
};

/** A door's marker: filled with its last result's colour (white: not knocked), ringed when flagged. */
export function doorStyle(d: Pick<DoorPoint, "result" | "flagged">) {
  return {
    radius: d.flagged ? 7 : 5,
    color: d.flagged ? FLAG_RING : d.result ? "#ffffff" : NOT_KNOCKED.edge,
    weight: d.flagged ? 3 : 1,
    fillColor: d.result ? RESULT_COLORS[d.result] : NOT_KNOCKED.fill,
    fillOpacity: d.result ? 0.95 : 0.9,
  };
}

/** A door's tooltip: "103 Oak St: Not Home · 2 attempts · flagged". */
export function doorTooltip(d: Pick<DoorPoint, "label" | "result" | "attempts" | "flagged">): string {
  const what = d.result
    ? `${RESULT_LABELS[d.result]} · ${d.attempts} ${d.attempts === 1 ? "attempt" : "attempts"}`
    : "not knocked yet";
  return `${d.label}: ${what}${d.flagged ? " · flagged" : ""}`;
}

const doorLabel = (d: { order: number; address: string | null }) => d.address ?? `Door ${d.order}`;

/** The list's doors with their last result and whether a flag names them (the map's points). */
export function doorPoints(doors: ListMap["doors"], states: DoorState[], flags: CanvassBoard["flags"]): DoorPoint[] {
  const stateOf = new Map(states.map((s) => [s.doorId as string, s]));
  const flagged = new Set(flags.map((f) => f.doorId).filter((id): id is NonNullable<typeof id> => id !== null));
  return doors.map((d) => {
    const s = stateOf.get(d.id);
    return {
      id: d.id,
      order: d.order,
      lat: d.lat,
      lng: d.lng,
      label: doorLabel(d),
      result: s?.lastResult ?? null,
      attempts: s?.attempts ?? 0,
      lastAt: s?.lastAt ?? null,
      flagged: flagged.has(d.id),
    };
  });
}

export type LegendRow = { key: ResultCode | "not_knocked"; label: string; color: string; doors: number };

/** The legend: doors per last result (in the result codes' order), then doors not knocked yet. */
export function legendRows(states: DoorState[], doorsTotal: number): LegendRow[] {
  const counts = new Map<ResultCode, number>();
  for (const s of states) counts.set(s.lastResult, (counts.get(s.lastResult) ?? 0) + 1);
  return [
    ...RESULT_CODES.map((r) => ({
      key: r,
      label: RESULT_LABELS[r],
      color: RESULT_COLORS[r],
      doors: counts.get(r) ?? 0,
    })),
    {
      key: "not_knocked" as const,
      label: "Not knocked yet",
      color: NOT_KNOCKED.fill,
      doors: Math.max(0, doorsTotal - states.length),
    },
  ];
}

export type FlagRow = {
  key: string;
  kind: FlagKind;
  label: string;
  message: string;
  canvasser: string;
  /** the door's address (or "Door 12"); null: about a canvasser, not one door */
  door: string | null;
  doorId: string | null;
  at: number;
};

/** The dashboard's flags with their canvasser's name and door, newest first. */
export function flagRows(board: CanvassBoard, doors: ListMap["doors"]): FlagRow[] {
  const names = new Map(board.canvassers.map((c) => [c.id as string, c.name]));
  const doorOf = new Map(doors.map((d) => [d.id as string, d]));
  return board.flags
    .map((f, i) => {
      const door = f.doorId ? doorOf.get(f.doorId) : undefined;
      return {
        key: `${f.kind}:${f.canvasserId}:${f.doorId ?? ""}:${f.at}:${i}`,
        kind: f.kind,
        label: FLAG_LABELS[f.kind],
        message: f.message,
        canvasser: names.get(f.canvasserId) ?? "A former member",
        door: f.doorId ? (door ? doorLabel(door) : "A door no longer on the list") : null,
        doorId: f.doorId,
        at: f.at,
      };
    })
    .sort((a, b) => b.at - a.at);
}
