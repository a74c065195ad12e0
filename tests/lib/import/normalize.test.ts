/** Value normalisation: parties, statuses, dates, phones, ZIPs, election history; the row transform. */
import { afterEach, describe, expect, test, vi } from "vitest";
import { ELECTION_HISTORY, IGNORE } from "@/lib/import/fields";
import {
  normalizeDate,
  normalizeParty,
  normalizePhone,
  normalizeStatus,
  normalizeZip,
  summariseHistory,
} from "@/lib/import/normalize";
import { compileMapping, fieldTypeOf, invalidValuesNote } from "@/lib/import/transform";

describe("normalisation", () => {
  test("party codes", () => {
    expect(["DEM", "d", "REP", "R", "UNA", "LIB", "L", "GRE", "G", "NPA", "Democratic"].map(normalizeParty)).toEqual([
      "Democrat",
      "Democrat",
      "Republican",
      "Republican",
      "Independent",
      "Libertarian",
      "Libertarian",
      "Green Party",
      "Green Party",
      "Independent",
      "Democrat",
    ]);
    expect(normalizeParty("CST")).toBe("CST");
  });
  test("status codes", () => {
    expect(["A", "active", "I", "INA", "S", "SUSPENSE", "P", "R"].map(normalizeStatus)).toEqual([
      "Active",
      "Active",
      "Inactive",
      "Inactive",
      "Suspended",
      "Suspended",
      "Pending",
      "Inactive",
    ]);
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
  describe("two-digit birth years", () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    test("the most recent year that makes the person at least 16 today", () => {
      vi.useFakeTimers();
      vi.setSystemTime(new Date(2025, 5, 15, 12, 0, 0)); // 15 June 2025, local noon
      const birth = (v: string) => normalizeDate(v, { birth: true });
      expect(birth("3/4/21")).toBe("1921-03-04");
      expect(birth("7/1/98")).toBe("1998-07-01");
      expect(birth("1/2/05")).toBe("2005-01-02"); // 20 today
      expect(birth("6/15/09")).toBe("2009-06-15"); // 16 today
      expect(birth("6/16/09")).toBe("1909-06-16"); // 16 tomorrow: a century earlier
      expect(birth("12/31/09")).toBe("1909-12-31");
      expect(birth("1/1/10")).toBe("1910-01-01");
      expect(birth("1/1/25")).toBe("1925-01-01");
      expect(birth("03-04-00")).toBe("2000-03-04");
      expect(birth("4-MAR-21")).toBe("1921-03-04");
      expect(birth("15-JUN-09")).toBe("2009-06-15");
      // four-digit years and other formats are taken as written
      expect(birth("3/4/2021")).toBe("2021-03-04");
      expect(birth("2021-03-04")).toBe("2021-03-04");
      expect(birth("1921")).toBe("1921");
      expect(birth("02/30/21")).toBeNull();
      // without the option, two-digit years are unchanged: this century up to this year
      expect(normalizeDate("3/4/21")).toBe("2021-03-04");
      expect(normalizeDate("6/16/09")).toBe("2009-06-16");
      expect(normalizeDate("7/1/98")).toBe("1998-07-01");
      expect(normalizeDate("1921")).toBe("1921");
    });
    test("follows the current date: the same '05 birth date a year apart", () => {
      vi.useFakeTimers();
      vi.setSystemTime(new Date(2021, 0, 1, 12, 0, 0));
      expect(normalizeDate("1/2/05", { birth: true })).toBe("1905-01-02"); // would be 15 (16 tomorrow)
      vi.setSystemTime(new Date(2021, 0, 2, 12, 0, 0));
      expect(normalizeDate("1/2/05", { birth: true })).toBe("2005-01-02"); // 16 today
      vi.setSystemTime(new Date(2099, 11, 31, 12, 0, 0));
      expect(normalizeDate("1/2/05", { birth: true })).toBe("2005-01-02");
      expect(normalizeDate("12/31/83", { birth: true })).toBe("2083-12-31");
      expect(normalizeDate("1/1/84", { birth: true })).toBe("1984-01-01");
    });
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
      {
        FIRST: "first_name",
        LAST: "last_name",
        PARTY: "party_affiliation",
        ZIP: "zip",
        DOB: "date_of_birth",
        County: "county",
        E2022: ELECTION_HISTORY,
        E2024: ELECTION_HISTORY,
        Junk: IGNORE,
      },
      [{ key: "county", label: "County", type: "text" }],
    );
    expect(build([" Ann ", "Lee", "DEM", "02134", "1/5/1980", "Wake", "Y", "", "x"])).toEqual({
      first_name: "Ann",
      last_name: "Lee",
      party_affiliation: "Democrat",
      party_code: "DEM",
      zip: "02134",
      date_of_birth: "1980-01-05",
      custom_fields: { county: "Wake" },
      state_voter_history: 1,
      vote_history: [{ election: "E2022" }],
    });
    expect(build(["Bo", "", "", "", "not a date", "", "", "", ""])).toEqual({
      first_name: "Bo",
      last_name: "",
      date_of_birth: "not a date",
      state_voter_history: 0,
    });
    expect(stats.get("DOB")).toEqual({ processed: 2, errors: 1 });
    expect(stats.get("Junk")).toEqual({ processed: 0, errors: 0 });
  });

  test("an email or phone that is not one is left out of the voter and counted; the summary says so", () => {
    const headers = ["FIRST", "LAST", "EMAIL", "PHONE", "DOB"];
    const { build, stats } = compileMapping(headers, {
      FIRST: "first_name",
      LAST: "last_name",
      EMAIL: "email",
      PHONE: "phone",
      DOB: "date_of_birth",
    });
    expect(build(["Ann", "Lee", "not-an-email", "abc", "soon"])).toEqual({
      first_name: "Ann",
      last_name: "Lee",
      date_of_birth: "soon",
    });
    expect(build(["Bo", "Kim", "bo@example.org", "919 555 0142", "1/5/1980"])).toEqual({
      first_name: "Bo",
      last_name: "Kim",
      email: "bo@example.org",
      phone: "(919) 555-0142",
      date_of_birth: "1980-01-05",
    });
    expect(stats.get("EMAIL")).toEqual({ processed: 2, errors: 1 });
    expect(stats.get("PHONE")).toEqual({ processed: 2, errors: 1 });
    expect(fieldTypeOf("phone")).toBe("phone");
    expect(invalidValuesNote("PHONE", fieldTypeOf("phone"), 1)).toBe(
      "Column 'PHONE': 1 value not a valid phone number, left out.",
    );
    expect(invalidValuesNote("EMAIL", "email", 3)).toBe(
      "Column 'EMAIL': 3 values not a valid email address, left out.",
    );
    expect(invalidValuesNote("DOB", "date", 2)).toBe("Column 'DOB': 2 values not a valid date, kept as written.");
  });
});
