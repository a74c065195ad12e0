/**
 * The generated ZIP3 / state → time zone tables (convex/lib/timeZones.ts, written per zone as runs
 * of prefixes): the lookup the quiet hours use gets every prefix and state, runs expanded.
 */
import { describe, expect, test } from "vitest";
import { STATE_TIME_ZONES, ZIP3_TIME_ZONES } from "@convex/lib/timeZones";

describe("time zones by ZIP3 and state", () => {
  test("931 prefixes and 62 states, keys as written (three digits, leading zeros kept)", () => {
    expect(Object.keys(ZIP3_TIME_ZONES)).toHaveLength(931);
    expect(Object.keys(STATE_TIME_ZONES)).toHaveLength(62);
    expect(Object.keys(ZIP3_TIME_ZONES).every((k) => /^\d{3}$/.test(k))).toBe(true);
  });

  test("runs and single prefixes, at their ends and inside", () => {
    expect(ZIP3_TIME_ZONES["005"]).toBe("America/New_York");
    expect(ZIP3_TIME_ZONES["010"]).toBe("America/New_York");
    expect(ZIP3_TIME_ZONES["089"]).toBe("America/New_York");
    expect(ZIP3_TIME_ZONES["006"]).toBe("America/Puerto_Rico");
    expect(ZIP3_TIME_ZONES["008"]).toBe("America/St_Thomas");
    expect(ZIP3_TIME_ZONES["606"]).toBe("America/Chicago");
    expect(ZIP3_TIME_ZONES["852"]).toBe("America/Phoenix");
    expect(ZIP3_TIME_ZONES["900"]).toBe("America/Los_Angeles");
    expect(ZIP3_TIME_ZONES["999"]).toBe("America/Sitka");
    expect(ZIP3_TIME_ZONES["001"]).toBeUndefined();
    expect(STATE_TIME_ZONES.TX).toBe("America/Chicago");
    expect(STATE_TIME_ZONES.AZ).toBe("America/Phoenix");
    expect(STATE_TIME_ZONES.NY).toBe("America/New_York");
  });
});
