/**
 * A machine speed index for every benchmark: a fixed CPU workload (hashing, JSON, sorting,
 * string work), its best of five runs as runs per 100 s (higher is faster, proportional to
 * speed). Machines of one kind differ up to ~3x; figures of runs on different machines compare
 * after dividing by it.
 */
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";

export function speedIndex(): number {
  const work = () => {
    const t0 = performance.now();
    let h = Buffer.alloc(64);
    for (let k = 0; k < 20_000; k++) h = createHash("sha256").update(h).digest();
    const rows = Array.from({ length: 20_000 }, (_, k) => ({
      k,
      s: `row-${(k * 7919) % 20_000}`,
      v: [k, k * 2, String(k)],
    }));
    const copy = JSON.parse(JSON.stringify(rows)) as typeof rows;
    copy.sort((a, b) => a.s.localeCompare(b.s));
    let acc = 0;
    for (const r of copy) acc += r.s.toUpperCase().charCodeAt(4);
    return { ms: performance.now() - t0, acc };
  };
  let best = Infinity;
  for (let k = 0; k < 5; k++) best = Math.min(best, work().ms);
  return Math.round(100_000 / best);
}

/** The line every benchmark prints first. */
export function speedIndexLine(): string {
  return `machine speed index: ${speedIndex()} (a fixed CPU workload, runs per 100 s; divide figures by it to compare machines)`;
}
