/**
 * The projected valid count of a petition (spec: live): the valid rate among decided lines ×
 * lines received, with a 95 % Wilson interval on the rate. In sampling mode the decided lines are
 * the random sample's, as a county's random-sample verification projects the full count.
 */
export const SAMPLE_RATE = 0.03;
export const SAMPLE_MIN = 500;

/** The sample's size for `lines` lines: 3 % or 500, whichever is more (all lines when fewer). */
export function sampleSize(lines: number): number {
  return Math.min(lines, Math.max(SAMPLE_MIN, Math.ceil(lines * SAMPLE_RATE)));
}

export type Projection = { rate: number; projected: number; low: number; high: number; decided: number } | null;

export function projectValid(valid: number, decided: number, received: number, z = 1.96): Projection {
  if (decided <= 0) return null;
  const p = valid / decided;
  const z2 = z * z;
  const denom = 1 + z2 / decided;
  const centre = (p + z2 / (2 * decided)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / decided + z2 / (4 * decided * decided))) / denom;
  const low = Math.max(0, centre - half);
  const high = Math.min(1, centre + half);
  return {
    rate: p,
    projected: Math.round(p * received),
    low: Math.floor(low * received),
    high: Math.ceil(high * received),
    decided,
  };
}
