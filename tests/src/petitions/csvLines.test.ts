/** A transcription CSV → signer lines (issue 33): page, line, city and ZIP kept; unused columns named. */
import { describe, expect, test } from "vitest";
import { csvColumns, csvLines, fullAddress } from "@/features/petitions/utils/csvLines";

describe("petition CSV import", () => {
  test("page, line, city and ZIP columns are read; the columns it does not use are named", () => {
    const headers = [
      "Page",
      "Line",
      "Signer Name",
      "Street Address",
      "City",
      "ZIP",
      "Date Signed",
      "Circulator",
      "Notes",
    ];
    const rows = [
      {
        Page: "3",
        Line: "12",
        "Signer Name": "Ann Huhes",
        "Street Address": "12 Oak St",
        City: "Portland",
        ZIP: "97205",
        "Date Signed": "5/1/2026",
        Circulator: "Bo",
        Notes: "",
      },
      {
        Page: "Page 4",
        Line: "#1",
        "Signer Name": "Rosa Delgado",
        "Street Address": "31 Elm St, Portland",
        City: "Portland",
        ZIP: "97206",
        "Date Signed": "",
        Circulator: "Bo",
        Notes: "smudged",
      },
      {
        Page: "",
        Line: "",
        "Signer Name": "",
        "Street Address": "",
        City: "",
        ZIP: "",
        "Date Signed": "",
        Circulator: "",
        Notes: "",
      },
    ];
    const r = csvLines(headers, rows);
    expect(r.error).toBeNull();
    expect(r.unused).toEqual(["Circulator", "Notes"]);
    expect(r.lines).toEqual([
      { name: "Ann Huhes", address: "12 Oak St, Portland, 97205", signedOn: "2026-05-01", page: 3, line: 12 },
      { name: "Rosa Delgado", address: "31 Elm St, Portland, 97206", signedOn: null, page: 4, line: 1 },
    ]);
  });
  test("first and last name columns, state, a unit; no page column", () => {
    const r = csvLines(
      ["first_name", "last_name", "address", "apt", "city", "state", "zip_code"],
      [
        {
          first_name: "Gail",
          last_name: "Porter",
          address: "5 Lake Rd",
          apt: "Apt 2",
          city: "Portland",
          state: "OR",
          zip_code: "97210",
        },
      ],
    );
    expect(r.lines).toEqual([
      { name: "Gail Porter", address: "5 Lake Rd Apt 2, Portland, OR 97210", signedOn: null, page: null, line: null },
    ]);
    expect(r.unused).toEqual([]);
  });
  test("a file without a name column is refused with what it needs", () => {
    expect(csvLines(["Address", "City"], [{ Address: "1 A St", City: "X" }]).error).toMatch(/name column/);
    expect(csvColumns(["Name", "First Name"]).unused).toEqual(["First Name"]);
    expect(fullAddress("12 Oak St, Portland, OR 97205", "", "Portland", "OR", "97205")).toBe(
      "12 Oak St, Portland, OR 97205",
    );
  });
});
