/**
 * Manual recipients typed on the Send To tab (spec/2 §5): split on commas and new lines (and, as
 * the server does, semicolons and spaces), entries without @ are ignored, duplicates (of the list
 * or of each other) are skipped. Addresses with an @ that still are not addresses are reported,
 * not added; so are those beyond the campaign's limit.
 */
import { isEmailAddress } from "@convex/lib/email/addresses";
import { MAX_MANUAL_RECIPIENTS } from "@convex/lib/email/blast";
import { countOf } from "@/lib/plural";

export type ManualAddResult = {
  /** the list with the new addresses appended (lowercased) */
  next: string[];
  added: string[];
  /** entries without @ */
  ignored: number;
  duplicates: number;
  invalid: string[];
  /** valid new addresses left out because the campaign holds MAX_MANUAL_RECIPIENTS */
  overLimit: number;
};

export function addManualAddresses(
  existing: readonly string[],
  input: string,
  limit = MAX_MANUAL_RECIPIENTS,
): ManualAddResult {
  const next = [...existing];
  const seen = new Set(existing.map((e) => e.toLowerCase()));
  const out: ManualAddResult = { next, added: [], ignored: 0, duplicates: 0, invalid: [], overLimit: 0 };
  for (const raw of input.split(/[\s,;]+/)) {
    const entry = raw.trim();
    if (!entry) continue;
    if (!entry.includes("@")) {
      out.ignored++;
      continue;
    }
    const address = entry.toLowerCase();
    if (seen.has(address)) {
      out.duplicates++;
      continue;
    }
    if (!isEmailAddress(address)) {
      out.invalid.push(entry.slice(0, 80));
      continue;
    }
    seen.add(address);
    if (next.length >= limit) {
      out.overLimit++;
      continue;
    }
    next.push(address);
    out.added.push(address);
  }
  return out;
}

/** What the input's line says after an add ("2 added, 1 duplicate skipped"). */
export function manualAddSummary(r: ManualAddResult): string {
  const parts: string[] = [];
  parts.push(`${r.added.length} added`);
  if (r.duplicates) parts.push(`${countOf(r.duplicates, "duplicate")} skipped`);
  if (r.ignored) parts.push(`${r.ignored} without @ ignored`);
  if (r.invalid.length) parts.push(`not valid: ${r.invalid.join(", ")}`);
  if (r.overLimit) parts.push(`${r.overLimit} over the limit of ${MAX_MANUAL_RECIPIENTS} (use a list for more)`);
  return parts.join(", ");
}
