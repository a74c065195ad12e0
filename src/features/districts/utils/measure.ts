/**
 * Shading the district map (pure): a district's value for the chosen measure — its voters, the
 * share of them in a party, or the share who voted in an election — and five colour steps from
 * the lowest to the highest value on the map, with the legend's ranges.
 */
import type { DistrictMeasure } from "@convex/lib/districts";

export type MeasureChoice = { measure: DistrictMeasure; party: string; election: string };

type Tallied = {
  voters: number;
  parties: { party: string; count: number }[];
  turnout: { election: string; voted: number }[];
};

/** The district's value (a count for voters, a 0–1 share otherwise); null: nothing to measure. */
export function measureOf(d: Tallied, c: MeasureChoice): number | null {
  if (c.measure === "voters") return d.voters;
  if (d.voters === 0) return null;
  if (c.measure === "party") return (d.parties.find((p) => p.party === c.party)?.count ?? 0) / d.voters;
  return (d.turnout.find((t) => t.election === c.election)?.voted ?? 0) / d.voters;
}

/** Light to dark blue, AA-distinguishable on the map; grey: no value. */
const SHADES = ["#eff6ff", "#bfdbfe", "#60a5fa", "#2563eb", "#1e3a8a"] as const;
const NO_VALUE = "#e5e7eb";

/** The five steps' upper bounds over the values shown (equal ranges from the lowest to the highest). */
export function steps(values: (number | null)[]): { min: number; max: number } | null {
  const v = values.filter((x): x is number => x !== null);
  if (v.length === 0) return null;
  return { min: Math.min(...v), max: Math.max(...v) };
}

export function shadeOf(value: number | null, range: { min: number; max: number } | null): string {
  if (value === null || range === null) return NO_VALUE;
  if (range.max === range.min) return SHADES[SHADES.length - 1];
  const i = Math.floor(((value - range.min) / (range.max - range.min)) * SHADES.length);
  return SHADES[Math.min(SHADES.length - 1, Math.max(0, i))];
}

export function formatMeasure(value: number | null, measure: DistrictMeasure): string {
  if (value === null) return "—";
  return measure === "voters" ? value.toLocaleString("en-US") : `${(value * 100).toFixed(1)}%`;
}

/** The legend: each shade with the range of values it stands for. */
export function legend(range: { min: number; max: number } | null, measure: DistrictMeasure) {
  if (!range) return [];
  const width = (range.max - range.min) / SHADES.length;
  return SHADES.map((color, i) => ({
    color,
    label:
      range.max === range.min
        ? formatMeasure(range.max, measure)
        : `${formatMeasure(range.min + width * i, measure)} – ${formatMeasure(range.min + width * (i + 1), measure)}`,
  })).filter((_, i) => range.max !== range.min || i === SHADES.length - 1);
}

/** The parties and elections the districts of a kind hold (the measure's choices), most voters first. */
export function choicesOf(districts: Tallied[]): { parties: string[]; elections: string[] } {
  const parties = new Map<string, number>();
  const elections = new Map<string, number>();
  for (const d of districts) {
    for (const p of d.parties) if (p.party) parties.set(p.party, (parties.get(p.party) ?? 0) + p.count);
    for (const t of d.turnout) elections.set(t.election, (elections.get(t.election) ?? 0) + t.voted);
  }
  return {
    parties: [...parties].sort((a, b) => b[1] - a[1]).map(([p]) => p),
    elections: [...elections.keys()].sort().reverse(),
  };
}
