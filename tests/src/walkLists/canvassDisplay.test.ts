/** The live dashboard's words and colours: rates, "last activity", a door's marker and tooltip, the legend's counts. */
import { describe, expect, test } from "vitest";
import { formatDateTime } from "@/lib/dateTime";
import {
  ago,
  doorStyle,
  doorTooltip,
  FLAG_RING,
  legendRows,
  NOT_KNOCKED,
  percent,
  RESULT_COLORS,
} from "@/features/walkLists/utils/canvassDisplay";

describe("canvassDisplay", () => {
  test("rates and last activity", () => {
    expect(percent(0)).toBe("0%");
    expect(percent(0.256)).toBe("26%");
    const now = Date.UTC(2026, 5, 3, 16);
    expect(ago(null, now)).toBe("No activity yet");
    expect(ago(now - 20_000, now)).toBe("just now");
    // a canvasser's clock a little ahead of ours
    expect(ago(now + 5_000, now)).toBe("just now");
    expect(ago(now - 5 * 60_000, now)).toBe("5 min ago");
    expect(ago(now - 3 * 3_600_000 - 1, now)).toBe("3 h ago");
    // older: the date and time
    expect(ago(now - 2 * 86_400_000, now)).toBe(formatDateTime(now - 2 * 86_400_000));
  });

  test("a door's marker: its result's colour, white when not knocked, a ring when flagged", () => {
    expect(doorStyle({ result: "contacted", flagged: false })).toMatchObject({
      fillColor: RESULT_COLORS.contacted,
      color: "#ffffff",
      radius: 5,
    });
    expect(doorStyle({ result: null, flagged: false })).toMatchObject({
      fillColor: NOT_KNOCKED.fill,
      color: NOT_KNOCKED.edge,
    });
    expect(doorStyle({ result: "refused", flagged: true })).toMatchObject({
      fillColor: RESULT_COLORS.refused,
      color: FLAG_RING,
      weight: 3,
      radius: 7,
    });
    // every result has its own colour
    expect(new Set(Object.values(RESULT_COLORS)).size).toBe(Object.keys(RESULT_COLORS).length);
    expect(doorTooltip({ label: "103 Oak St", result: "not_home", attempts: 2, flagged: true })).toBe(
      "103 Oak St: Not Home · 2 attempts · flagged",
    );
    expect(doorTooltip({ label: "Door 4", result: null, attempts: 0, flagged: false })).toBe("Door 4: not knocked yet");
  });

  test("the legend counts doors by their last result, and the doors not knocked yet", () => {
    const rows = legendRows(
      [
        { doorId: "d1" as never, lastResult: "contacted", lastAt: 1, attempts: 1 },
        { doorId: "d2" as never, lastResult: "come_back", lastAt: 1, attempts: 3 },
        { doorId: "d3" as never, lastResult: "contacted", lastAt: 1, attempts: 1 },
      ],
      10,
    );
    expect(rows.map((r) => `${r.label}: ${r.doors}`)).toEqual([
      "Not Home: 0",
      "Contacted: 2",
      "Refused: 0",
      "Moved: 0",
      "Deceased: 0",
      "Inaccessible: 0",
      "Come Back: 1",
      "Not knocked yet: 7",
    ]);
  });
});
