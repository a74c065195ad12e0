/** Next-run computation for the schedules `cronJobs()` produces (all in UTC). */

export type CronSchedule =
  | { type: "interval"; seconds?: number; minutes?: number; hours?: number }
  | { type: "hourly"; minuteUTC?: number }
  | { type: "daily"; hourUTC: number; minuteUTC?: number }
  | { type: "weekly"; dayOfWeek: string; hourUTC: number; minuteUTC?: number }
  | { type: "monthly"; day: number; hourUTC: number; minuteUTC?: number }
  | { type: "cron"; cron: string };

const DAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

type CronFields = {
  minute: Set<number>;
  hour: Set<number>;
  dom: Set<number>;
  month: Set<number>;
  dow: Set<number>;
  domStar: boolean;
  dowStar: boolean;
};

function parseField(src: string, min: number, max: number, names?: string[]): Set<number> {
  const out = new Set<number>();
  for (const part of src.split(",")) {
    const [rangePart, stepPart] = part.split("/");
    const step = stepPart === undefined ? 1 : Number(stepPart);
    if (!Number.isInteger(step) || step <= 0) throw new Error(`Invalid cron step in "${src}"`);
    let lo: number;
    let hi: number;
    const parseNum = (s: string) => {
      const idx = names?.indexOf(s.toLowerCase().slice(0, 3));
      if (names && idx !== undefined && idx >= 0) return idx;
      const n = Number(s);
      if (!Number.isInteger(n)) throw new Error(`Invalid cron value "${s}"`);
      return n;
    };
    if (rangePart === "*") {
      lo = min;
      hi = max;
    } else if (rangePart.includes("-")) {
      const [a, b] = rangePart.split("-");
      lo = parseNum(a);
      hi = parseNum(b);
    } else {
      lo = parseNum(rangePart);
      hi = stepPart === undefined ? lo : max;
    }
    if (lo < min || hi > max || lo > hi) throw new Error(`Cron value out of range in "${src}"`);
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

function parseCron(expr: string): CronFields {
  const parts = expr.trim().split(/\s+/);
  // Convex accepts 5 fields (minute first); a leading seconds field is tolerated and ignored.
  const f = parts.length === 6 ? parts.slice(1) : parts;
  if (f.length !== 5) throw new Error(`Invalid cron expression "${expr}"`);
  const dow = parseField(f[4], 0, 7, ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]);
  if (dow.has(7)) dow.add(0);
  return {
    minute: parseField(f[0], 0, 59),
    hour: parseField(f[1], 0, 23),
    dom: parseField(f[2], 1, 31),
    month: parseField(
      f[3],
      1,
      12,
      ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].map((m, i) =>
        i === 0 ? m : m,
      ),
    ),
    dow,
    domStar: f[2] === "*",
    dowStar: f[4] === "*",
  };
}

function cronNext(fields: CronFields, after: number): number {
  const d = new Date(Math.floor(after / 60000) * 60000 + 60000);
  for (let i = 0; i < 366 * 24 * 60 * 5; i++) {
    const month = d.getUTCMonth() + 1;
    if (!fields.month.has(month)) {
      d.setUTCMonth(d.getUTCMonth() + 1, 1);
      d.setUTCHours(0, 0, 0, 0);
      continue;
    }
    const domOk = fields.dom.has(d.getUTCDate());
    const dowOk = fields.dow.has(d.getUTCDay());
    const dayOk = fields.domStar || fields.dowStar ? domOk && dowOk : domOk || dowOk;
    if (!dayOk) {
      d.setUTCDate(d.getUTCDate() + 1);
      d.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!fields.hour.has(d.getUTCHours())) {
      d.setUTCHours(d.getUTCHours() + 1, 0, 0, 0);
      continue;
    }
    if (!fields.minute.has(d.getUTCMinutes())) {
      d.setUTCMinutes(d.getUTCMinutes() + 1, 0, 0);
      continue;
    }
    return d.getTime();
  }
  throw new Error("Cron expression never fires");
}

/** First run strictly after `after` (ms since epoch). */
export function nextRun(schedule: CronSchedule, after: number): number {
  switch (schedule.type) {
    case "interval": {
      const ms = (schedule.seconds ?? 0) * 1000 + (schedule.minutes ?? 0) * 60_000 + (schedule.hours ?? 0) * 3_600_000;
      if (ms <= 0) throw new Error("Invalid interval");
      return after + ms;
    }
    case "hourly":
      return cronNext(parseCron(`${schedule.minuteUTC ?? 0} * * * *`), after);
    case "daily":
      return cronNext(parseCron(`${schedule.minuteUTC ?? 0} ${schedule.hourUTC} * * *`), after);
    case "weekly":
      return cronNext(
        parseCron(`${schedule.minuteUTC ?? 0} ${schedule.hourUTC} * * ${DAYS.indexOf(schedule.dayOfWeek)}`),
        after,
      );
    case "monthly":
      return cronNext(parseCron(`${schedule.minuteUTC ?? 0} ${schedule.hourUTC} ${schedule.day} * *`), after);
    case "cron":
      return cronNext(parseCron(schedule.cron), after);
  }
}
