/** A date filter's day in the user's zone as instants (the audit log's From/To): zones east and west, daylight-saving days. */
import { describe, expect, test } from "vitest";
import { zonedDayStart } from "@/lib/dateTime";

describe("zonedDayStart", () => {
  test("the instant a day starts in the zone, or the next day starts; anything but YYYY-MM-DD is no date", () => {
    expect(zonedDayStart("2026-06-03", false, "UTC")).toBe(Date.UTC(2026, 5, 3));
    expect(zonedDayStart("2026-06-03", true, "UTC")).toBe(Date.UTC(2026, 5, 4));
    expect(zonedDayStart("2026-01-15", false, "America/Chicago")).toBe(Date.UTC(2026, 0, 15, 6));
    expect(zonedDayStart("2026-06-03", false, "America/Chicago")).toBe(Date.UTC(2026, 5, 3, 5));
    expect(zonedDayStart("2026-06-03", false, "Asia/Kolkata")).toBe(Date.UTC(2026, 5, 2, 18, 30));
    expect(zonedDayStart("2026-12-31", true, "Pacific/Auckland")).toBe(Date.UTC(2026, 11, 31, 11));
    for (const bad of ["", "2026-6-3", "June 3", "2026-06-03T00:00"]) expect(zonedDayStart(bad)).toBeUndefined();
  });

  test("daylight-saving days: the offset of that midnight, not of the day before or after", () => {
    // New York moves to EDT at 2 am on 8 March 2026 and back to EST at 2 am on 1 November 2026
    expect(zonedDayStart("2026-03-08", false, "America/New_York")).toBe(Date.UTC(2026, 2, 8, 5));
    expect(zonedDayStart("2026-03-08", true, "America/New_York")).toBe(Date.UTC(2026, 2, 9, 4));
    expect(zonedDayStart("2026-11-01", false, "America/New_York")).toBe(Date.UTC(2026, 10, 1, 4));
    expect(zonedDayStart("2026-11-01", true, "America/New_York")).toBe(Date.UTC(2026, 10, 2, 5));
    // Santiago's clocks change at midnight: on 6 September 2026 the day starts at 1 am (no midnight)
    expect(zonedDayStart("2026-09-06", false, "America/Santiago")).toBe(Date.UTC(2026, 8, 6, 4));
  });
});
