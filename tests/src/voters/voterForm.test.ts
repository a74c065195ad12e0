import { describe, expect, test } from "vitest";
import { moveSection, orderSections } from "@convex/tables/voters";
import { fieldsFromValues, formFieldDefs, missingRequired, valuesFromVoter } from "@/features/voters/utils/voterForm";

describe("voter form logic", () => {
  test("section order: saved first, missing appended, junk dropped", () => {
    expect(orderSections(null)[0]).toBe("personal");
    const o = orderSections(["notes", "bogus", "personal", "notes"]);
    expect(o.slice(0, 3)).toEqual(["notes", "personal", "address"]);
    expect(o).toHaveLength(7);
    expect(moveSection(["personal", "address", "notes"], "personal", "notes")).toEqual([
      "address",
      "notes",
      "personal",
    ]);
    expect(moveSection(["personal", "address"], "bogus", "address")).toBeNull();
  });
  test("values round-trip with types and custom fields", () => {
    const custom = [{ key: "custom_1", label: "Shirt", type: "dropdown", required: true, options: ["S"] }];
    const values = valuesFromVoter({
      first_name: "Ada",
      last_name: "L",
      from_state_database: true,
      state_voter_history: 3,
      custom_fields: { custom_1: "S", custom_old: "x" },
    });
    expect(values).toMatchObject({
      first_name: "Ada",
      from_state_database: "Yes",
      state_voter_history: "3",
      custom_1: "S",
    });
    const fields = fieldsFromValues({ ...values, email: "  ", city: " Springfield " }, custom, { custom_old: "x" });
    expect(fields).toEqual({
      first_name: "Ada",
      last_name: "L",
      from_state_database: true,
      state_voter_history: 3,
      city: "Springfield",
      custom_fields: { custom_old: "x", custom_1: "S" },
    });
    expect(missingRequired({ first_name: "A" }, formFieldDefs(custom))).toEqual(["Last Name", "Shirt"]);
  });
});
