import { describe, expect, test } from "vitest";
import {
  editsOf,
  initialMergeState,
  keepMine,
  rebase,
  setValue,
  takeTheirs,
  touchedFields,
  withConflicts,
} from "@/lib/records/mergeForm";

const saved = { first_name: "Maria", phone: "555-0100", email: "maria@example.org" };

describe("an edit form over a shared record", () => {
  test("a teammate's save updates untouched fields in place and keeps the user's edits", () => {
    let s = setValue(initialMergeState(saved), "phone", "555-0199");
    s = rebase(s, { ...saved, email: "m@example.org" });
    expect(s.values).toEqual({ first_name: "Maria", phone: "555-0199", email: "m@example.org" });
    expect(s.conflicts).toEqual({});
    expect(touchedFields(s)).toEqual(["phone"]);
  });

  test("a teammate's save to a touched field is a conflict; keep mine rebases, take theirs drops mine", () => {
    let s = setValue(initialMergeState(saved), "phone", "555-0199");
    s = rebase(s, { ...saved, phone: "555-0142" });
    expect(s.conflicts).toEqual({ phone: "555-0142" });
    expect(s.values.phone).toBe("555-0199");
    const mine = keepMine(s, "phone");
    expect(mine.conflicts).toEqual({});
    expect(editsOf(mine, (_k, v) => v || null)).toEqual([{ field: "phone", base: "555-0142", value: "555-0199" }]);
    const theirs = takeTheirs(s, "phone");
    expect(theirs.values.phone).toBe("555-0142");
    expect(touchedFields(theirs)).toEqual([]);
  });

  test("the same value saved by a teammate is not a conflict", () => {
    let s = setValue(initialMergeState(saved), "phone", "555-0177");
    s = rebase(s, { ...saved, phone: "555-0177" });
    expect(s.conflicts).toEqual({});
    expect(touchedFields(s)).toEqual([]);
  });

  test("clearing and new fields are edits with null/empty bases; a refused save's conflicts show inline", () => {
    let s = setValue(initialMergeState(saved), "email", "");
    s = setValue(s, "city", "Austin");
    expect(editsOf(s, (_k, v) => v || null)).toEqual([
      { field: "email", base: "maria@example.org", value: null },
      { field: "city", base: null, value: "Austin" },
    ]);
    s = withConflicts(s, { city: "Dallas" });
    expect(s.conflicts).toEqual({ city: "Dallas" });
  });
});
