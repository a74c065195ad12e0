/** Import History display rules (spec/1 §9) and live progress figures. */
import { describe, expect, test } from "vitest";
import {
  displayStatus,
  formatDuration,
  progressFigures,
  STALE_IMPORT_MS,
  successRate,
  successRateColor,
} from "@/lib/import/format";

describe("history display", () => {
  test("duration as seconds, or minutes plus seconds", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(42_400)).toBe("42s");
    expect(formatDuration(60_000)).toBe("1m 0s");
    expect(formatDuration(125_000)).toBe("2m 5s");
  });
  test("success-rate colours: above 90 green, above 70 orange, else red", () => {
    expect(successRateColor(successRate(91, 100))).toBe("green");
    expect(successRateColor(90)).toBe("orange");
    expect(successRateColor(70.5)).toBe("orange");
    expect(successRateColor(70)).toBe("red");
    expect(successRate(0, 0)).toBe(0);
  });
  test("an in_progress import without a batch for a while shows as interrupted", () => {
    const now = 1_000_000_000;
    expect(displayStatus("in_progress", now - 1000, now)).toBe("in_progress");
    expect(displayStatus("in_progress", now - STALE_IMPORT_MS - 1, now)).toBe("interrupted");
    expect(displayStatus("completed", 0, now)).toBe("completed");
  });
  test("rate and ETA from rows (known total) or bytes (streamed CSV)", () => {
    const byRows = progressFigures({ processed: 5000, startedAt: 0, updatedAt: 1000, total: 20000 });
    expect(byRows.rate).toBe(5000);
    expect(byRows.etaSeconds).toBeCloseTo(3);
    const byBytes = progressFigures({
      processed: 100,
      startedAt: 0,
      updatedAt: 2000,
      total: null,
      bytesDone: 250,
      bytesTotal: 1000,
    });
    expect(byBytes.fraction).toBe(0.25);
    expect(byBytes.etaSeconds).toBeCloseTo(6);
  });
});
