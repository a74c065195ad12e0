/**
 * Quiet hours by the recipient's state (issue 39): a text leaves only inside the stricter of the
 * federal window (TCPA, 47 CFR 64.1200(c)(1): 8 am to 9 pm, the recipient's local time), the
 * recipient's state's window for that day of the week (some states allow less, some no Sundays or
 * legal holidays), and the organisation's own sending hours (SMS settings). A message outside it
 * is held (its readyAt moves to the next opening), never dropped.
 *
 * The state table follows the states' telephone-solicitation laws as commonly summarised
 * (e.g. Florida's FTSA, Oklahoma's OTSA, Maryland's Stop the Spam Calls Act, Texas Bus. & Com.
 * Code 301.051); it is conservative, not legal advice, and each row names its law so a reviewer can
 * check it. Legal holidays are the state's public holidays as date-holidays knows them.
 */
import Holidays from "date-holidays";
import { localTime } from "./rules";

/** A day's window in minutes after local midnight, or null: no texts that day. */
export type DayWindow = { start: number; end: number } | null;

export type StateRule = {
  /** Monday to Friday */
  weekday: DayWindow;
  saturday: DayWindow;
  sunday: DayWindow;
  /** no texts on the state's legal (public) holidays */
  holidays: boolean;
  /** the law the row follows */
  law: string;
};

const h = (hour: number, minute = 0) => hour * 60 + minute;
const w = (start: number, end: number): DayWindow => ({ start, end });

/** TCPA: not before 8 am or after 9 pm, the recipient's local time. */
export const FEDERAL_WINDOW = w(h(8), h(21));

const every = (window: DayWindow, law: string, holidays = false): StateRule => ({
  weekday: window,
  saturday: window,
  sunday: window,
  holidays,
  law,
});

/** States whose rules are stricter than the federal window somewhere in the week. */
export const STATE_QUIET_HOURS: Record<string, StateRule> = {
  AL: { ...every(w(h(8), h(20)), "Ala. Code § 8-19C-1 et seq.", true), sunday: null },
  CT: every(w(h(9), h(20)), "Conn. Gen. Stat. § 42-288a"),
  FL: every(w(h(8), h(20)), "Fla. Stat. § 501.059 (Florida Telephone Solicitation Act)"),
  KY: every(w(h(10), h(21)), "Ky. Rev. Stat. § 367.46955"),
  LA: { ...every(w(h(8), h(20)), "La. Rev. Stat. § 45:844.11 et seq.", true), sunday: null },
  MA: every(w(h(8), h(20)), "Mass. Gen. Laws ch. 159C § 3"),
  MD: every(w(h(8), h(20)), "Md. Com. Law § 14-4501 (Stop the Spam Calls Act)"),
  MN: every(w(h(9), h(21)), "Minn. Stat. § 325E.27"),
  MS: { ...every(w(h(8), h(20)), "Miss. Code § 77-3-725"), sunday: null },
  OK: every(w(h(8), h(20)), "Okla. Stat. tit. 15 § 775C.1 (Telephone Solicitation Act)"),
  PA: { ...every(w(h(8), h(21)), "73 Pa. Stat. § 2245.2"), sunday: w(h(13, 30), h(21)) },
  RI: {
    weekday: w(h(9), h(18)),
    saturday: w(h(10), h(17)),
    sunday: null,
    holidays: true,
    law: "R.I. Gen. Laws § 5-61-3.4",
  },
  SC: { ...every(w(h(8), h(21)), "S.C. Code § 37-21-70"), sunday: w(h(13), h(18)) },
  TX: { ...every(w(h(9), h(21)), "Tex. Bus. & Com. Code § 301.051"), sunday: w(h(12), h(21)) },
  UT: { ...every(w(h(8), h(21)), "Utah Code § 13-25a-103", true), sunday: null },
  WA: every(w(h(8), h(20)), "Wash. Rev. Code § 80.36.390"),
};

function intersect(a: DayWindow, b: DayWindow): DayWindow {
  if (a === null || b === null) return null;
  const start = Math.max(a.start, b.start);
  const end = Math.min(a.end, b.end);
  return start < end ? { start, end } : null;
}

/** The state's holidays by year, as "YYYY-MM-DD" (date-holidays takes ~0.5 ms a lookup: once a year per state). */
const holidayCache = new Map<string, Set<string>>();
function isHoliday(state: string, ymd: string): boolean {
  const key = `${state}:${ymd.slice(0, 4)}`;
  let days = holidayCache.get(key);
  if (days === undefined) {
    const hd = new Holidays("US", state, { types: ["public"], timezone: "UTC" });
    days = new Set((hd.getHolidays(Number(ymd.slice(0, 4))) || []).map((d) => d.date.slice(0, 10)));
    holidayCache.set(key, days);
  }
  return days.has(ymd);
}

/** The recipient's state as the table keys it (two letters, upper case), or null. */
export function stateCode(state: string | null | undefined): string | null {
  const s = state?.trim().toUpperCase() ?? "";
  return /^[A-Z]{2}$/.test(s) ? s : null;
}

/**
 * The window a text may leave in on a local day (weekday 0 = Sunday, date "YYYY-MM-DD"): the
 * federal window, the state's for that day (none on its legal holidays when its law says so) and
 * the organisation's sending hours (whole hours, start < end).
 */
export function dayWindow(
  state: string | null,
  weekday: number,
  ymd: string,
  orgStart: number,
  orgEnd: number,
): DayWindow {
  let window = intersect(FEDERAL_WINDOW, w(h(orgStart), h(orgEnd)));
  const rule = state ? STATE_QUIET_HOURS[state] : undefined;
  if (rule) {
    if (rule.holidays && isHoliday(state!, ymd)) return null;
    window = intersect(window, weekday === 0 ? rule.sunday : weekday === 6 ? rule.saturday : rule.weekday);
  }
  return window;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

function localDay(at: number, timeZone: string): { weekday: number; ymd: string } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    weekday: "short",
  }).formatToParts(new Date(at));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return { weekday: WEEKDAYS[get("weekday")] ?? 0, ymd: `${get("year")}-${get("month")}-${get("day")}` };
}

/** Where a text goes: the recipient's IANA time zone and state (null: not known, federal and the organisation's hours only). */
export type Recipient = { timeZone: string; state?: string | null };

/**
 * When a text to this recipient may leave next: `at` when its window is open now, else the
 * window's next opening (to the minute; a daylight-saving change on the way moves it by an hour at
 * most, and the sender checks again then). Looks up to two weeks ahead.
 */
export function nextSendingTime(at: number, to: Recipient, orgStart: number, orgEnd: number): number {
  const state = stateCode(to.state);
  const { hour, minute } = localTime(at, to.timeZone);
  const nowMinutes = hour * 60 + minute;
  const startOfMinute = at - (at % 60_000);
  for (let day = 0; day < 14; day++) {
    // noon of the day `day` days ahead, to name its weekday and date in the recipient's zone
    const probe = at + (day * 24 * 60 + (12 * 60 - nowMinutes)) * 60_000;
    const { weekday, ymd } = localDay(probe, to.timeZone);
    const window = dayWindow(state, weekday, ymd, orgStart, orgEnd);
    if (window === null) continue;
    if (day === 0) {
      if (nowMinutes >= window.start && nowMinutes < window.end) return at;
      if (nowMinutes >= window.end) continue;
    }
    return startOfMinute + (day * 24 * 60 + window.start - nowMinutes) * 60_000;
  }
  // no window in two weeks (an organisation's hours that miss the state's): look again in a day
  return startOfMinute + 24 * 60 * 60_000;
}
