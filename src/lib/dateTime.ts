/**
 * Dates and times for the signed-in user: in the time zone they chose in Settings (the browser's
 * until they choose). The session sets the zone once (`setDisplayTimeZone`); screens format through
 * `formatDateTime` / `formatDate` instead of calling toLocale* with the browser's zone.
 */

let displayTimeZone: string | undefined;

/** The browser's IANA time zone. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** Every IANA time zone the browser knows, the browser's own among them. */
export function timeZoneNames(): string[] {
  const supported = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const own = browserTimeZone();
  return supported.includes(own) ? supported : [own, ...supported].sort();
}

/** Sets the zone every later formatting uses (null: the browser's). */
export function setDisplayTimeZone(zone: string | null) {
  displayTimeZone = zone ?? undefined;
}

export function currentTimeZone(): string {
  return displayTimeZone ?? browserTimeZone();
}

/** "Jun 3, 2026, 4:05 PM" in the user's zone ("4:05:09 PM" with seconds). */
export function formatDateTime(ms: number, timeZone = currentTimeZone(), opts: { seconds?: boolean } = {}): string {
  return new Date(ms).toLocaleString("en-US", {
    timeZone,
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    ...(opts.seconds ? { second: "2-digit" } : {}),
  });
}

const DAY_MS = 86_400_000;

/** How far the zone's wall clock is ahead of UTC at `at` (ms; negative west of Greenwich). */
function zoneOffsetMs(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return wall - Math.floor(at / 1000) * 1000;
}

/**
 * A date input's value ("2026-06-03") as the instant that day starts in the zone (the user's by
 * default), or the next day starts (`next`, for an end date); undefined for anything else.
 */
export function zonedDayStart(value: string, next = false, timeZone = currentTimeZone()): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const midnightUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + (next ? 1 : 0));
  const day = new Date(midnightUtc).toISOString().slice(0, 10);
  const dayAt = (t: number) => new Date(t + zoneOffsetMs(t, timeZone)).toISOString().slice(0, 10);
  // midnight at the zone's offset of the day before and of the day after (they differ when the
  // clocks change around it); the earlier that falls on the day. Where the clocks skip midnight
  // the day starts when they resume (the later one).
  const candidates = [-DAY_MS, DAY_MS].map((d) => midnightUtc - zoneOffsetMs(midnightUtc + d, timeZone));
  candidates.sort((a, b) => a - b);
  return candidates.find((t) => dayAt(t) === day) ?? candidates[1];
}

/** "GMT-5" or "GMT+5:30": the zone's current offset, for the zone list. */
export function timeZoneOffset(timeZone: string, at = Date.now()): string {
  const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "shortOffset" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName");
  return part?.value ?? "";
}
