/**
 * Quiet hours by the recipient's state: the stricter of federal 8 am–9 pm, the state's window for
 * the day (shorter windows, no Sundays, no legal holidays) and the organisation's hours. One test
 * per state in the table, at the edges of its windows, in the recipient's own time zone.
 */
import { describe, expect, test } from "vitest";
import { dayWindow, FEDERAL_WINDOW, nextSendingTime, STATE_QUIET_HOURS, stateCode } from "@convex/lib/sms/quietHours";
import { STATE_TIME_ZONES } from "@convex/lib/timeZones";

/** 2027-03: Monday 1st … Sunday 7th (no holiday that week in any state's table). */
const MONDAY = "2027-03-01";
const SATURDAY = "2027-03-06";
const SUNDAY = "2027-03-07";
/** The moment a local date and clock time is in `timeZone`. */
function at(ymd: string, time: string, timeZone: string): number {
  const wanted = Date.parse(`${ymd}T${time}:00Z`);
  const fmt = new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short", timeStyle: "medium" });
  let guess = wanted;
  for (let i = 0; i < 3; i++) guess = wanted - (Date.parse(`${fmt.format(guess).replace(" ", "T")}Z`) - guess);
  return guess;
}
const minutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

/** Whether a text to someone in `state` may leave at that local time with the widest organisation hours. */
function open(state: string, ymd: string, time: string) {
  const timeZone = STATE_TIME_ZONES[state];
  const t = at(ymd, time, timeZone);
  return nextSendingTime(t, { timeZone, state }, 0, 24) === t;
}

/** The state's expected window on a day: the stricter of federal and its own (the table under test is not the oracle: each state is spelled out). */
const EXPECTED: Record<
  string,
  { weekday: string | null; saturday: string | null; sunday: string | null; holiday?: string }
> = {
  AL: { weekday: "08:00-20:00", saturday: "08:00-20:00", sunday: null, holiday: "2027-11-25" },
  CT: { weekday: "09:00-20:00", saturday: "09:00-20:00", sunday: "09:00-20:00" },
  FL: { weekday: "08:00-20:00", saturday: "08:00-20:00", sunday: "08:00-20:00" },
  KY: { weekday: "10:00-21:00", saturday: "10:00-21:00", sunday: "10:00-21:00" },
  LA: { weekday: "08:00-20:00", saturday: "08:00-20:00", sunday: null, holiday: "2027-02-09" },
  MA: { weekday: "08:00-20:00", saturday: "08:00-20:00", sunday: "08:00-20:00" },
  MD: { weekday: "08:00-20:00", saturday: "08:00-20:00", sunday: "08:00-20:00" },
  MN: { weekday: "09:00-21:00", saturday: "09:00-21:00", sunday: "09:00-21:00" },
  MS: { weekday: "08:00-20:00", saturday: "08:00-20:00", sunday: null },
  OK: { weekday: "08:00-20:00", saturday: "08:00-20:00", sunday: "08:00-20:00" },
  PA: { weekday: "08:00-21:00", saturday: "08:00-21:00", sunday: "13:30-21:00" },
  RI: { weekday: "09:00-18:00", saturday: "10:00-17:00", sunday: null, holiday: "2027-08-09" },
  SC: { weekday: "08:00-21:00", saturday: "08:00-21:00", sunday: "13:00-18:00" },
  TX: { weekday: "09:00-21:00", saturday: "09:00-21:00", sunday: "12:00-21:00" },
  UT: { weekday: "08:00-21:00", saturday: "08:00-21:00", sunday: null, holiday: "2027-07-24" },
  WA: { weekday: "08:00-20:00", saturday: "08:00-20:00", sunday: "08:00-20:00" },
};

describe("quiet hours by state", () => {
  test("every state in the table has its expected windows spelled out here, and names its law", () => {
    expect(Object.keys(STATE_QUIET_HOURS).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const rule of Object.values(STATE_QUIET_HOURS)) expect(rule.law).not.toBe("");
  });

  for (const [state, days] of Object.entries(EXPECTED)) {
    test(`${state}: open exactly inside its window each day of the week${days.holiday ? ", closed on a legal holiday" : ""}`, () => {
      for (const [ymd, window] of [
        [MONDAY, days.weekday],
        [SATURDAY, days.saturday],
        [SUNDAY, days.sunday],
      ] as const) {
        if (window === null) {
          for (const time of ["08:00", "12:00", "14:00", "20:30"])
            expect(open(state, ymd, time), `${ymd} ${time}`).toBe(false);
          continue;
        }
        const [start, end] = window.split("-").map(minutes);
        expect(open(state, ymd, clock(start - 1)), `${ymd} just before ${clock(start)}`).toBe(false);
        expect(open(state, ymd, clock(start)), `${ymd} at ${clock(start)}`).toBe(true);
        expect(open(state, ymd, clock(end - 1)), `${ymd} just before ${clock(end)}`).toBe(true);
        expect(open(state, ymd, clock(end)), `${ymd} at ${clock(end)}`).toBe(false);
      }
      if (days.holiday) expect(open(state, days.holiday, "12:00"), days.holiday).toBe(false);
    });
  }

  test("a state not in the table gets the federal window: 8 am to 9 pm every day", () => {
    expect(STATE_QUIET_HOURS.OR).toBeUndefined();
    for (const ymd of [MONDAY, SATURDAY, SUNDAY]) {
      expect(open("OR", ymd, "07:59")).toBe(false);
      expect(open("OR", ymd, "08:00")).toBe(true);
      expect(open("OR", ymd, "20:59")).toBe(true);
      expect(open("OR", ymd, "21:00")).toBe(false);
    }
    expect(dayWindow(null, 0, SUNDAY, 0, 24)).toEqual(FEDERAL_WINDOW);
  });

  test("the organisation's hours narrow the window further, never widen it", () => {
    expect(dayWindow("FL", 1, MONDAY, 9, 21)).toEqual({ start: 9 * 60, end: 20 * 60 });
    expect(dayWindow("OR", 1, MONDAY, 6, 23)).toEqual(FEDERAL_WINDOW);
    expect(dayWindow("TX", 0, SUNDAY, 9, 11)).toBeNull();
  });

  test("a held text waits for the next opening: Saturday night in Mississippi goes out Monday at 8 am", () => {
    const tz = STATE_TIME_ZONES.MS;
    const sat = at(SATURDAY, "20:15", tz);
    expect(nextSendingTime(sat, { timeZone: tz, state: "MS" }, 0, 24)).toBe(
      at(MONDAY.replace("01", "08"), "08:00", tz),
    );
    // Texas on Sunday morning: noon the same day
    const tx = STATE_TIME_ZONES.TX;
    expect(nextSendingTime(at(SUNDAY, "10:07", tx), { timeZone: tx, state: "TX" }, 0, 24)).toBe(
      at(SUNDAY, "12:00", tx),
    );
    // an unknown state: the federal window in the recipient's zone
    const ny = "America/New_York";
    expect(nextSendingTime(at(MONDAY, "21:30", ny), { timeZone: ny, state: null }, 0, 24)).toBe(
      at("2027-03-02", "08:00", ny),
    );
  });

  test("the recipient's state is read from a voter's address as two letters", () => {
    expect(stateCode(" tx ")).toBe("TX");
    expect(stateCode("Texas")).toBeNull();
    expect(stateCode(undefined)).toBeNull();
  });
});
