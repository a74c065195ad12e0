/** Delimiter and line-ending detection on the first decoded chunk (quotes respected). */

const CANDIDATE_DELIMITERS = [",", "\t", ";", "|"] as const;

/** Field counts of the first lines for a delimiter, ignoring delimiters inside quotes. */
function fieldCounts(text: string, delim: string, maxLines: number): number[] {
  const counts: number[] = [];
  let inQuotes = false;
  let n = 1;
  for (let i = 0; i < text.length && counts.length < maxLines; i++) {
    const ch = text[i];
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && ch === delim) n++;
    else if (!inQuotes && (ch === "\n" || ch === "\r")) {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      if (n > 1 || counts.length > 0) counts.push(n);
      n = 1;
    }
  }
  if (counts.length < maxLines && n > 1) counts.push(n);
  return counts;
}

/** The candidate that splits the header into the most columns, consistently over the next lines. */
export function detectDelimiter(sample: string, fallback = ","): string {
  let best = fallback;
  let bestScore = 0;
  for (const d of CANDIDATE_DELIMITERS) {
    const counts = fieldCounts(sample, d, 20);
    if (counts.length === 0 || counts[0] < 2) continue;
    const consistent = counts.filter((c) => c === counts[0]).length / counts.length;
    const score = counts[0] * consistent;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

export function detectNewline(sample: string): "\r\n" | "\n" | "\r" {
  let inQuotes = false;
  for (let i = 0; i < sample.length; i++) {
    const ch = sample[i];
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && ch === "\r") return sample[i + 1] === "\n" ? "\r\n" : "\r";
    else if (!inQuotes && ch === "\n") return "\n";
  }
  return "\n";
}
