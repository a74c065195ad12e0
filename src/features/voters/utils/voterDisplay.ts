/** Colours and comparisons the voter screens show (spec/1 §2, §5). */
import { voterFieldLabel } from "@convex/tables/voters";
type Color = "green" | "red" | "yellow" | "orange" | "gray" | "blue" | "teal";

export function statusColor(status: string | undefined): Color {
  switch (status) {
    case "Active":
      return "green";
    case "Inactive":
      return "red";
    case "Pending":
      return "yellow";
    case "Suspended":
      return "orange";
    default:
      return "gray";
  }
}

export function statusLabel(status: string | undefined): string {
  return status && status.trim() ? status : "Unknown";
}

export function partyColor(party: string | undefined): Color {
  switch (party) {
    case "Democrat":
      return "blue";
    case "Republican":
      return "red";
    case "Independent":
      return "teal";
    default:
      return "gray";
  }
}

const KNOWN_PARTIES = ["Democrat", "Republican", "Independent", "Green Party", "Libertarian"];

export function partyLabel(party: string | undefined): string {
  return party && KNOWN_PARTIES.includes(party) ? party : party && party.trim() ? party : "Other/Unknown";
}

/** Petition-mode voting frequency n/4: 3+ green, 2 yellow, else red. */
export function frequencyColor(n: number | undefined): Color {
  const v = n ?? 0;
  return v >= 3 ? "green" : v === 2 ? "yellow" : "red";
}

/** State voter history 0–4: 0 red, up to 2 orange, above 2 green. */
export function historyColor(n: number | undefined): Color {
  const v = n ?? 0;
  return v === 0 ? "red" : v <= 2 ? "orange" : "green";
}

/** A voter field compared with its state-verified value after trimming, ignoring case. */
export function verifiedMatches(value: string | undefined, verified: string | undefined): boolean {
  return (value ?? "").trim().toLowerCase() === (verified ?? "").trim().toLowerCase();
}

/** "custom_shirt_size" → "Shirt Size": labels of stored custom fields without a definition. */
export function labelFromKey(key: string): string {
  return key
    .replace(/^custom_/, "")
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(" ");
}

/** A state-verified value to compare with: empty means the state file gave none (no icon is shown). */
export function hasVerifiedValue(verified: string | undefined): verified is string {
  return (verified ?? "").trim() !== "";
}

/** "12,345 voters", "1 contact". */
export function countLabel(n: number, singular: string): string {
  return `${n.toLocaleString()} ${n === 1 ? singular : `${singular}s`}`;
}

/** A full ISO date (what a date input holds); anything else ("1921", "03/1950") stays text. */
export function isFullDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value.trim());
}

/** How the history names a changed field ("custom_fields.k" by its custom field's label). */
export function changeFieldLabel(field: string, customLabels: ReadonlyMap<string, string>): string {
  if (field.startsWith("custom_fields.")) {
    const key = field.slice("custom_fields.".length);
    return customLabels.get(key) ?? labelFromKey(key);
  }
  const label = voterFieldLabel(field);
  return label === field ? labelFromKey(field) : label;
}

/** A changed value as the history shows it: empty as "—", Yes/No, the vote history by its size. */
export function changeValueText(field: string, value: string | null): string {
  if (value === null || value === "") return "—";
  if (value === "true") return "Yes";
  if (value === "false") return "No";
  if (field === "vote_history") {
    try {
      const list = JSON.parse(value) as unknown[];
      return Array.isArray(list) ? `${list.length} ${list.length === 1 ? "election" : "elections"}` : value;
    } catch {
      return value;
    }
  }
  return value;
}

/** Elections newest first (by ISO date; undated ones after, in the file's order). */
export function electionsNewestFirst<T extends { date?: string }>(elections: readonly T[]): T[] {
  return elections
    .map((e, i) => ({ e, i }))
    .sort((a, b) => {
      const da = a.e.date ?? "";
      const db = b.e.date ?? "";
      if (da && db && da !== db) return da < db ? 1 : -1;
      if (!da !== !db) return da ? -1 : 1;
      return a.i - b.i;
    })
    .map(({ e }) => e);
}
