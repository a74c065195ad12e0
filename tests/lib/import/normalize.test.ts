/** Value normalisation: parties, statuses, dates, phones, ZIPs, election history; the row transform. */
import { describe, expect, test } from "vitest";
import { ELECTION_HISTORY, IGNORE } from "../../../src/lib/import/fields";
import { normalizeDate, normalizeParty, normalizePhone, normalizeStatus, normalizeZip, summariseHistory } from "../../../src/lib/import/normalize";
import { compileMapping } from "../../../src/lib/import/transform";

describe("normalisation", () => {
  test("party codes", () => {
    expect(["DEM", "d", "REP", "R", "UNA", "LIB", "L", "GRE", "G", "NPA", "Democratic"].map(normalizeParty)).toEqual([
      "Democrat", "Democrat", "Republican", "Republican", "Independent", "Libertarian", "Libertarian", "Green Party", "Green Party", "Independent", "Democrat",
    ]);
    expect(normalizeParty("CST")).toBe("CST");
  });
  test("status codes", () => {
    expect(["A", "active", "I", "INA", "S", "SUSPENSE", "P", "R"].map(normalizeStatus)).toEqual(["Active", "Active", "Inactive", "Inactive", "Suspended", "Suspended", "Pending", "Inactive"]);
  });
  test("dates to ISO", () => {
    expect(normalizeDate("03/15/2004")).toBe("2004-03-15");
    expect(normalizeDate("3/5/04")).toBe("2004-03-05");
    expect(normalizeDate("19800105")).toBe("1980-01-05");
    expect(normalizeDate("1980-01-05T00:00:00Z")).toBe("1980-01-05");
    expect(normalizeDate("Jan 5, 1980")).toBe("1980-01-05");
    expect(normalizeDate("05-JAN-1980")).toBe("1980-01-05");
    expect(normalizeDate("1961")).toBe("1961");
    expect(normalizeDate("02/30/2001")).toBeNull();
    expect(normalizeDate("soon")).toBeNull();
  });
  test("phones and ZIPs", () => {
    expect(normalizePhone("919.555.0123")).toBe("(919) 555-0123");
    expect(normalizePhone("+1 919 555 0123 ext 12")).toBe("(919) 555-0123 x12");
    expect(normalizePhone("555-0123")).toBe("555-0123");
    expect(normalizeZip("02134")).toBe("02134");
    expect(normalizeZip("2134")).toBe("02134");
    expect(normalizeZip("021341234")).toBe("02134-1234");
  });
  test("history: voted marks in the four most recent elections, ordered by year", () => {
    const cols = [
      { header: "GENERAL_2024", index: 0 },
      { header: "GENERAL_2016", index: 1 },
      { header: "PRIMARY_2022", index: 2 },
      { header: "GENERAL_2020", index: 3 },
      { header: "GENERAL_2022", index: 4 },
    ];
    const cells = ["Y", "Y", "", "A", "N"];
    // most recent four: 2020 (A), 2022 primary (""), 2022 general (N), 2024 (Y) → 2
    expect(summariseHistory(cols, (i) => cells[i])).toBe(2);
  });
});

describe("row transform", () => {
  test("trims, skips empty cells, normalises, routes custom fields, summarises history", () => {
    const headers = ["FIRST", "LAST", "PARTY", "ZIP", "DOB", "County", "E2022", "E2024", "Junk"];
    const { build, stats } = compileMapping(
      headers,
      { FIRST: "first_name", LAST: "last_name", PARTY: "party_affiliation", ZIP: "zip", DOB: "date_of_birth", County: "county", E2022: ELECTION_HISTORY, E2024: ELECTION_HISTORY, Junk: IGNORE },
      [{ key: "county", label: "County", type: "text" }],
    );
    expect(build([" Ann ", "Lee", "DEM", "02134", "1/5/1980", "Wake", "Y", "", "x"])).toEqual({
      first_name: "Ann", last_name: "Lee", party_affiliation: "Democrat", zip: "02134", date_of_birth: "1980-01-05", custom_fields: { county: "Wake" }, state_voter_history: 1,
    });
    expect(build(["Bo", "", "", "", "not a date", "", "", "", ""])).toEqual({ first_name: "Bo", last_name: "", date_of_birth: "not a date", state_voter_history: 0 });
    expect(stats.get("DOB")).toEqual({ processed: 2, errors: 1 });
    expect(stats.get("Junk")).toEqual({ processed: 0, errors: 0 });
  });
});
