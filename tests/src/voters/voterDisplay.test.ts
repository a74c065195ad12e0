import { describe, expect, test } from "vitest";
import {
  frequencyColor,
  historyColor,
  labelFromKey,
  partyColor,
  partyLabel,
  statusColor,
  statusLabel,
  verifiedMatches,
} from "@/features/voters/utils/voterDisplay";

describe("voter display rules", () => {
  test("status and party badges", () => {
    expect(["Active", "Inactive", "Pending", "Suspended", "Odd", undefined].map(statusColor)).toEqual([
      "green",
      "red",
      "yellow",
      "orange",
      "gray",
      "gray",
    ]);
    expect(statusLabel("")).toBe("Unknown");
    expect(["Democrat", "Republican", "Independent", "Green Party"].map(partyColor)).toEqual([
      "blue",
      "red",
      "teal",
      "gray",
    ]);
    expect(partyLabel(undefined)).toBe("Other/Unknown");
  });
  test("frequency and history colours", () => {
    expect([0, 1, 2, 3, 4].map(frequencyColor)).toEqual(["red", "red", "yellow", "green", "green"]);
    expect([0, 1, 2, 3, 4].map(historyColor)).toEqual(["red", "orange", "orange", "green", "green"]);
  });
  test("verified compare trims and ignores case", () => {
    expect(verifiedMatches(" Ada ", "ADA")).toBe(true);
    expect(verifiedMatches("Ada", "Adam")).toBe(false);
  });
  test("labels from keys", () => {
    expect(labelFromKey("custom_shirt_size")).toBe("Shirt Size");
  });
});
