/**
 * Signs that stand on the same spot (placed by ZIP code share its centre; two signs at one
 * address) would be drawn on top of each other, and only the top one could be clicked. Drawn on
 * their own (past the clustering zoom), such a group is fanned out around its spot on a small
 * circle ("spiderfied") with a leg back to the spot, so each sign can be seen and picked.
 */
export type ScreenPoint = { x: number; y: number };

/** Points in the same cell of this many screen pixels count as one spot. */
const SAME_SPOT_PX = 6;
/** The fan's radius grows with the group so markers (18 px wide) never touch. */
export function fanRadius(count: number): number {
  return Math.max(24, (count * 22) / (2 * Math.PI));
}

/**
 * Screen positions for `points`: a point alone keeps its own; a group sharing a spot gets evenly
 * spaced positions on a circle around the group's first point, in input order, starting at the top.
 * Returns, per input point, where to draw it and the spot it belongs to (equal when alone).
 */
export function spreadOverlapping(points: ScreenPoint[]): { at: ScreenPoint; spot: ScreenPoint }[] {
  const bySpot = new Map<string, number[]>();
  for (let i = 0; i < points.length; i++) {
    const key = `${Math.round(points[i].x / SAME_SPOT_PX)},${Math.round(points[i].y / SAME_SPOT_PX)}`;
    const group = bySpot.get(key);
    if (group) group.push(i);
    else bySpot.set(key, [i]);
  }
  const groups = [...bySpot.values()];
  const out: { at: ScreenPoint; spot: ScreenPoint }[] = new Array(points.length);
  for (const g of groups) {
    const spot = points[g[0]];
    if (g.length === 1) {
      out[g[0]] = { at: spot, spot };
      continue;
    }
    const r = fanRadius(g.length);
    g.forEach((index, k) => {
      const angle = -Math.PI / 2 + (2 * Math.PI * k) / g.length;
      out[index] = { at: { x: spot.x + r * Math.cos(angle), y: spot.y + r * Math.sin(angle) }, spot };
    });
  }
  return out;
}
