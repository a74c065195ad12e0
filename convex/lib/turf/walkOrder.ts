/**
 * Walking order within a turf. Doors are walked along each street by side — the odd numbers, then
 * the even ones — in house-number order (units of a building together); each side of a street is cut
 * into runs where two neighbouring doors are far apart (the same street on the turf's other edge).
 * The runs ("chains") are then chained by proximity: nearest neighbour from every starting run, each
 * run walkable either way, improved by 2-opt over the chains (reversing a stretch of the route
 * reverses its runs too). A canvasser never zigzags across a street, and the route stays short: the
 * unit test compares it with a 2-opt route over the single doors.
 */
import { metres } from "./geometry";

export type WalkDoor = { lat: number; lng: number; streetKey: string; number: number; unit: string | null };

/** House numbers of one block face (US numbering starts each block at a multiple of 100). */
const BLOCK_NUMBERS = 100;
/** Neighbouring doors on one side of a street farther apart than this start a new run. */
const RUN_GAP_METRES = 250;

type Chain = { doors: number[]; a: number; b: number; length: number };

function compareUnits(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a.localeCompare(b, "en", { numeric: true });
}

/** The runs of doors: per street and side, in number order, cut at gaps. */
function chainsOf(doors: WalkDoor[]): Chain[] {
  const groups = new Map<string, number[]>();
  doors.forEach((d, i) => {
    const k = `${d.streetKey}\u0000${d.number % 2}\u0000${Math.floor(d.number / BLOCK_NUMBERS)}`;
    const g = groups.get(k);
    if (g) g.push(i);
    else groups.set(k, [i]);
  });
  const chains: Chain[] = [];
  const dist = (i: number, j: number) => metres(doors[i].lat, doors[i].lng, doors[j].lat, doors[j].lng);
  for (const g of groups.values()) {
    g.sort((i, j) => doors[i].number - doors[j].number || compareUnits(doors[i].unit, doors[j].unit));
    let run: number[] = [g[0]];
    let length = 0;
    const close = () => chains.push({ doors: run, a: run[0], b: run[run.length - 1], length });
    for (let k = 1; k < g.length; k++) {
      const step = dist(g[k - 1], g[k]);
      if (step > RUN_GAP_METRES) {
        close();
        run = [g[k]];
        length = 0;
      } else {
        run.push(g[k]);
        length += step;
      }
    }
    close();
  }
  return chains;
}

type Step = { c: number; rev: boolean };

/** The order of the doors (indices into `doors`) to walk them in. */
export function walkOrder(doors: WalkDoor[]): number[] {
  if (doors.length <= 1) return doors.map((_, i) => i);
  const chains = chainsOf(doors);
  const n = chains.length;
  const dist = (i: number, j: number) => metres(doors[i].lat, doors[i].lng, doors[j].lat, doors[j].lng);
  const start = (s: Step) => (s.rev ? chains[s.c].b : chains[s.c].a);
  const end = (s: Step) => (s.rev ? chains[s.c].a : chains[s.c].b);
  const linkCost = (route: Step[]) => {
    let sum = 0;
    for (let k = 1; k < route.length; k++) sum += dist(end(route[k - 1]), start(route[k]));
    return sum;
  };
  // nearest neighbour from every run and direction (a turf has a few dozen runs)
  let best: Step[] = [];
  let bestCost = Infinity;
  const starts = n <= 60 ? n : 1;
  for (let s = 0; s < starts; s++) {
    for (const rev of [false, true]) {
      const used = new Uint8Array(n);
      const route: Step[] = [{ c: s, rev }];
      used[s] = 1;
      for (let k = 1; k < n; k++) {
        const at = end(route[route.length - 1]);
        let pick: Step | null = null;
        let pickCost = Infinity;
        for (let c = 0; c < n; c++) {
          if (used[c]) continue;
          const da = dist(at, chains[c].a);
          const db = dist(at, chains[c].b);
          if (da < pickCost) [pick, pickCost] = [{ c, rev: false }, da];
          if (db < pickCost) [pick, pickCost] = [{ c, rev: true }, db];
        }
        route.push(pick!);
        used[pick!.c] = 1;
      }
      const cost = linkCost(route);
      if (cost < bestCost) [best, bestCost] = [route, cost];
    }
  }
  for (let round = 0; round < 10; round++) {
    best = twoOptChains(best, start, end, dist);
    if (!orOpt(best, start, end, dist)) break;
  }
  return best.flatMap((s) => (s.rev ? chains[s.c].doors.slice().reverse() : chains[s.c].doors));
}

/** 2-opt over a route of runs: reversing route[i..j] also turns each of its runs around. */
function twoOptChains(
  route: Step[],
  start: (s: Step) => number,
  end: (s: Step) => number,
  dist: (i: number, j: number) => number,
): Step[] {
  const r = route.slice();
  const n = r.length;
  let improved = true;
  for (let pass = 0; improved && pass < 50; pass++) {
    improved = false;
    for (let i = 0; i < n; i++) {
      for (let j = i; j < n; j++) {
        const before =
          (i > 0 ? dist(end(r[i - 1]), start(r[i])) : 0) + (j + 1 < n ? dist(end(r[j]), start(r[j + 1])) : 0);
        // reversed: r[j] flipped comes first, r[i] flipped last
        const after =
          (i > 0 ? dist(end(r[i - 1]), end(r[j])) : 0) + (j + 1 < n ? dist(start(r[i]), start(r[j + 1])) : 0);
        if (after + 1e-9 < before) {
          const middle = r
            .slice(i, j + 1)
            .reverse()
            .map((s) => ({ c: s.c, rev: !s.rev }));
          r.splice(i, j - i + 1, ...middle);
          improved = true;
        }
      }
    }
  }
  return r;
}

/** Or-opt over a route of runs: moves one run (either way round) where it shortens the route most; true when it moved one. */
function orOpt(
  r: Step[],
  start: (s: Step) => number,
  end: (s: Step) => number,
  dist: (i: number, j: number) => number,
) {
  const n = r.length;
  const link = (a: Step | undefined, b: Step | undefined) => (a && b ? dist(end(a), start(b)) : 0);
  let moved = false;
  for (let i = 0; i < n; i++) {
    const s = r[i];
    const saved = link(r[i - 1], s) + link(s, r[i + 1]) - link(r[i - 1], r[i + 1]);
    const rest = r.slice(0, i).concat(r.slice(i + 1));
    let best: { at: number; step: Step; gain: number } | null = null;
    for (let at = 0; at <= rest.length; at++) {
      for (const rev of [false, true]) {
        const step = { c: s.c, rev };
        const added = link(rest[at - 1], step) + link(step, rest[at]) - link(rest[at - 1], rest[at]);
        const gain = saved - added;
        if (gain > 1e-6 && (!best || gain > best.gain)) best = { at, step, gain };
      }
    }
    if (best) {
      rest.splice(best.at, 0, best.step);
      r.splice(0, n, ...rest);
      moved = true;
    }
  }
  return moved;
}

/** The length in metres of walking `doors` in `order`. */
export function routeLength(doors: { lat: number; lng: number }[], order: number[]): number {
  let sum = 0;
  for (let k = 1; k < order.length; k++) {
    const [a, b] = [doors[order[k - 1]], doors[order[k]]];
    sum += metres(a.lat, a.lng, b.lat, b.lng);
  }
  return sum;
}

/**
 * The reference route: nearest neighbour over the single doors, improved by 2-opt until no move
 * shortens it (an open path). What the walking order is measured against.
 */
export function twoOptReference(doors: { lat: number; lng: number }[]): number[] {
  const n = doors.length;
  if (n <= 2) return doors.map((_, i) => i);
  const d = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      d[i * n + j] = d[j * n + i] = metres(doors[i].lat, doors[i].lng, doors[j].lat, doors[j].lng);
  const used = new Uint8Array(n);
  const r = [0];
  used[0] = 1;
  for (let k = 1; k < n; k++) {
    const at = r[k - 1];
    let pick = -1;
    for (let j = 0; j < n; j++) if (!used[j] && (pick < 0 || d[at * n + j] < d[at * n + pick])) pick = j;
    r.push(pick);
    used[pick] = 1;
  }
  let improved = true;
  while (improved) {
    improved = false;
    for (let i = 0; i < n - 1; i++) {
      for (let j = i + 1; j < n; j++) {
        const before = (i > 0 ? d[r[i - 1] * n + r[i]] : 0) + (j + 1 < n ? d[r[j] * n + r[j + 1]] : 0);
        const after = (i > 0 ? d[r[i - 1] * n + r[j]] : 0) + (j + 1 < n ? d[r[i] * n + r[j + 1]] : 0);
        if (after + 1e-9 < before) {
          for (let a = i, b = j; a < b; a++, b--) [r[a], r[b]] = [r[b], r[a]];
          improved = true;
        }
      }
    }
  }
  return r;
}
