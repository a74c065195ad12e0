/** Colours and comparisons the voter screens show (spec/1 §2, §5). */
type Color = "green" | "red" | "yellow" | "orange" | "gray" | "blue" | "teal";

export function statusColor(status: string | undefined): Color {
  switch (status) {
    case "Active": return "green";
    case "Inactive": return "red";
    case "Pending": return "yellow";
    case "Suspended": return "orange";
    default: return "gray";
  }
}

export function statusLabel(status: string | undefined): string {
  return status && status.trim() ? status : "Unknown";
}

export function partyColor(party: string | undefined): Color {
  switch (party) {
    case "Democrat": return "blue";
    case "Republican": return "red";
    case "Independent": return "teal";
    default: return "gray";
  }
}

export const KNOWN_PARTIES = ["Democrat", "Republican", "Independent", "Green Party", "Libertarian"];

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
