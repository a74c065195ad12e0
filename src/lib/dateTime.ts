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

/** "Jun 3, 2026, 4:05 PM" in the user's zone. */
export function formatDateTime(ms: number, timeZone = currentTimeZone()): string {
  return new Date(ms).toLocaleString("en-US", {
    timeZone,
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });
}

/** "GMT-5" or "GMT+5:30": the zone's current offset, for the zone list. */
export function timeZoneOffset(timeZone: string, at = Date.now()): string {
  const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "shortOffset" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName");
  return part?.value ?? "";
}
