/** Canvassing's pure rules (convex/lib/canvass.ts): labels, data-quality thresholds, answer counts. */
import { describe, expect, test } from "vitest";
import {
  addAnswerCounts,
  chosenOptions,
  contactRate,
  farFromDoor,
  flagMessage,
  isResultCode,
  rateFlag,
  RESULT_CODES,
  RESULT_LABELS,
  sumAnswerCounts,
  tooFast,
} from "@convex/lib/canvass";

describe("canvass rules", () => {
  test("every result code has its label", () => {
    expect(RESULT_CODES.map((r) => RESULT_LABELS[r])).toEqual([
      "Not Home",
      "Contacted",
      "Refused",
      "Moved",
      "Deceased",
      "Inaccessible",
      "Come Back",
    ]);
    expect(isResultCode("come_back")).toBe(true);
    expect(isResultCode("gone")).toBe(false);
  });

  test("a result more than 150 m from its door is far; without GPS it is not", () => {
    const door = { lat: 39.8, lng: -89.65 };
    expect(farFromDoor(null, door)).toBeNull();
    expect(farFromDoor({ lat: 39.8 + 100 / 111_320, lng: -89.65 }, door)).toBeNull();
    expect(farFromDoor({ lat: 39.8 + 151 / 111_320, lng: -89.65 }, door)).toBe(151);
  });

  test("two doors under 30 s apart are too fast; the same door or 30 s are not", () => {
    expect(tooFast(null, { at: 0, doorId: "a" })).toBeNull();
    expect(tooFast({ at: 0, doorId: "a" }, { at: 12_000, doorId: "b" })).toBe(12);
    expect(tooFast({ at: 0, doorId: "a" }, { at: 12_000, doorId: "a" })).toBeNull();
    expect(tooFast({ at: 0, doorId: "a" }, { at: 30_000, doorId: "b" })).toBeNull();
  });

  test("a contact rate twice the list's over 20 attempts is flagged", () => {
    expect(contactRate(0, 0)).toBe(0);
    const list = { attempts: 100, contacts: 25 };
    expect(rateFlag({ attempts: 20, contacts: 10 }, list)).toBe(true);
    expect(rateFlag({ attempts: 19, contacts: 19 }, list)).toBe(false);
    expect(rateFlag({ attempts: 20, contacts: 9 }, list)).toBe(false);
    expect(rateFlag({ attempts: 20, contacts: 10 }, { attempts: 10, contacts: 0 })).toBe(false);
    expect(flagMessage("rate", "Ann", 2.5)).toBe("Ann's contact rate is 2.5 times the list's.");
  });

  test("choice answers are counted per option", () => {
    expect(chosenOptions("Yes")).toEqual(["Yes"]);
    expect(chosenOptions(["A", "", "B"])).toEqual(["A", "B"]);
    expect(chosenOptions(3)).toEqual([]);
    const once = addAnswerCounts([], [{ field: "q", options: ["A", "B"] }]);
    const twice = addAnswerCounts(once, [{ field: "q", options: ["A"] }]);
    expect(twice).toEqual([
      { field: "q", option: "A", n: 2 },
      { field: "q", option: "B", n: 1 },
    ]);
    expect(once[0].n).toBe(1);
    expect(sumAnswerCounts([twice, once, []])).toEqual([
      { field: "q", option: "A", n: 3 },
      { field: "q", option: "B", n: 2 },
    ]);
  });
});
