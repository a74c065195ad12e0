/**
 * Auto-cut: an area's doors into turfs of about a target number of doors, contiguous along streets.
 * Doors are grouped into street runs (one street, both sides, neighbouring numbers: a block face
 * pair or a few); runs are ordered along a Hilbert curve over their centres (neighbouring runs stay
 * neighbours), and turfs are filled run after run. A turf closes at a run's end once it holds
 * about the target; a run that would overshoot is cut along the street. The target is evened out
 * first (doors / round(doors / target)), so the last turf is not a remainder.
 */

export type CutDoor = { lat: number; lng: number; streetKey: string; number: number };

/** A street run: doors of one street whose numbers are within this many of each other (a block). */
const RUN_NUMBERS = 100;
/** A turf may close at a run's end from this share of the evened target. */
const CLOSE_FROM = 0.9;
/** …and may take a whole run up to this share; beyond it the run is cut. */
const TAKE_UP_TO = 1.12;

/** Position along a Hilbert curve of order 16 of a point of the unit square. */
function hilbert(x: number, y: number): number {
  const n = 1 << 16;
  let xi = Math.min(n - 1, Math.max(0, Math.floor(x * n)));
  let yi = Math.min(n - 1, Math.max(0, Math.floor(y * n)));
  let d = 0;
  for (let s = n >> 1; s > 0; s >>= 1) {
    const rx = (xi & s) > 0 ? 1 : 0;
    const ry = (yi & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        xi = n - 1 - xi;
        yi = n - 1 - yi;
      }
      [xi, yi] = [yi, xi];
    }
  }
  return d;
}

/** The runs of doors (indices) along their streets, ordered so that neighbours follow each other. */
export function streetRuns(doors: CutDoor[]): number[][] {
  const byStreet = new Map<string, number[]>();
  doors.forEach((d, i) => {
    const g = byStreet.get(d.streetKey);
    if (g) g.push(i);
    else byStreet.set(d.streetKey, [i]);
  });
  const runs: { doors: number[]; lat: number; lng: number }[] = [];
  for (const g of byStreet.values()) {
    g.sort((a, b) => doors[a].number - doors[b].number);
    let run: number[] = [];
    const close = () => {
      if (!run.length) return;
      let lat = 0;
      let lng = 0;
      for (const i of run) {
        lat += doors[i].lat;
        lng += doors[i].lng;
      }
      runs.push({ doors: run, lat: lat / run.length, lng: lng / run.length });
      run = [];
    };
    let block = -1;
    for (const i of g) {
      const b = Math.floor(doors[i].number / RUN_NUMBERS);
      if (b !== block) close();
      block = b;
      run.push(i);
    }
    close();
  }
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const r of runs) {
    w = Math.min(w, r.lng);
    e = Math.max(e, r.lng);
    s = Math.min(s, r.lat);
    n = Math.max(n, r.lat);
  }
  const span = Math.max(e - w, n - s) || 1;
  const keyed = runs.map((r) => ({ r, h: hilbert((r.lng - w) / span, (r.lat - s) / span) }));
  keyed.sort((a, b) => a.h - b.h);
  return keyed.map((k) => k.r.doors);
}

/** The turfs (lists of door indices) of about `target` doors each. */
export function autoCut(doors: CutDoor[], target: number): number[][] {
  if (doors.length === 0) return [];
  const count = Math.max(1, Math.round(doors.length / Math.max(1, target)));
  const even = doors.length / count;
  const turfs: number[][] = [];
  let current: number[] = [];
  let closed = 0;
  // what the open turf should hold: the doors not in a closed turf shared by the turfs still to make (self-correcting)
  const aim = () => Math.max(1, Math.round((doors.length - closed) / Math.max(1, count - turfs.length)));
  const close = () => {
    closed += current.length;
    turfs.push(current);
    current = [];
  };
  for (const run of streetRuns(doors)) {
    let rest = run;
    while (rest.length) {
      const want = aim();
      const total = current.length + rest.length;
      if (turfs.length === count - 1 || total < want) {
        current.push(...rest);
        rest = [];
      } else if (total <= want * TAKE_UP_TO && total - want <= want - current.length) {
        // the whole run overshoots less than stopping before it falls short
        current.push(...rest);
        rest = [];
        close();
      } else if (current.length >= want * CLOSE_FROM) {
        close();
      } else {
        const room = want - current.length;
        current.push(...rest.slice(0, room));
        rest = rest.slice(room);
        close();
      }
    }
  }
  if (current.length) {
    // a remainder below the band joins the last turf when that stays in it
    if (turfs.length && current.length < even * 0.8 && turfs[turfs.length - 1].length + current.length <= even * 1.2)
      turfs[turfs.length - 1].push(...current);
    else turfs.push(current);
  }
  return turfs;
}
