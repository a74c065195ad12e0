/** The local pairing engine on wide election-office layouts, and mapping validation. */
import { describe, expect, test } from "vitest";
import { ELECTION_HISTORY, IGNORE, normalizeFieldKey } from "@/lib/import/fields";
import { autoMatch, suggestPairings } from "@/lib/import/pairing";
import { compileMapping } from "@/lib/import/transform";
import { validateMapping } from "@/lib/import/validateMapping";
import { cleanImportRow } from "@convex/lib/import/rows";
import {
  FL_EXPECTED,
  FL_HEADERS,
  layoutRows,
  NC_EXPECTED,
  NC_HEADERS,
  TX_EXPECTED,
  TX_HEADERS,
} from "../../fixtures/import/layouts";

function pairedMap(headers: string[], rows: string[][]) {
  return Object.fromEntries(
    suggestPairings(headers, rows)
      .filter((s) => s.target !== IGNORE)
      .map((s) => [s.header, s.target]),
  );
}

describe("pairing engine", () => {
  test("North Carolina ncvoter (67 columns): residential fields, codes, no mailing columns", () => {
    expect(NC_HEADERS).toHaveLength(67);
    const got = pairedMap(NC_HEADERS, layoutRows("nc", 50));
    expect(got).toEqual(NC_EXPECTED);
  });

  test("Texas-style UPPER_CASE (44 columns) with per-election history columns", () => {
    expect(TX_HEADERS.length).toBeGreaterThanOrEqual(40);
    expect(pairedMap(TX_HEADERS, layoutRows("tx", 50))).toEqual(TX_EXPECTED);
  });

  test("Florida-style extract (38 columns): NAME_LAST / NAME_FIRST, split phone", () => {
    expect(pairedMap(FL_HEADERS, layoutRows("fl", 50))).toEqual(FL_EXPECTED);
  });

  test("every suggestion explains itself", () => {
    const s = suggestPairings(NC_HEADERS, layoutRows("nc", 20));
    const party = s.find((x) => x.header === "party_cd")!;
    expect(party.reasons.join(" ")).toMatch(/party code/);
    expect(party.reasons.join(" ")).toMatch(/% of sampled values are party codes/);
    expect(s.find((x) => x.header === "mail_city")).toMatchObject({ target: IGNORE });
    expect(s.find((x) => x.header === "mail_city")!.reasons[0]).toMatch(/no target field/);
  });

  test("value sniffing pairs columns whose headers say nothing", () => {
    const headers = ["col_a", "col_b", "First", "Last", "col_c"];
    const rows = Array.from({ length: 10 }, (_, i) => [
      `p${i}@example.org`,
      `(919) 555-01${String(i).padStart(2, "0")}`,
      "A",
      "B",
      "DEM",
    ]);
    const s = suggestPairings(headers, rows);
    expect(s[0]).toMatchObject({ target: "email" });
    expect(s[0].reasons[0]).toMatch(/100% of sampled values are email addresses/);
    expect(s[1]).toMatchObject({ target: "phone" });
    expect(s[4]).toMatchObject({ target: IGNORE }); // party codes alone are not enough without a header hint
  });

  test("spec synonyms on upload: first name/fname, zip/postal, dob", () => {
    const m = autoMatch(["fname", "Surname", "E-mail", "Postal Code", "DOB", "Mobile", "Street", "Town"], []);
    expect(m).toMatchObject({
      fname: "first_name",
      Surname: "last_name",
      "E-mail": "email",
      "Postal Code": "zip",
      DOB: "date_of_birth",
      Mobile: "phone",
      Street: "address",
      Town: "city",
    });
  });

  test("middle names and suffixes are kept, not dropped (issue 33): Ohio, NC and plain headers", () => {
    const headers = [
      "SOS_VOTERID",
      "LAST_NAME",
      "FIRST_NAME",
      "MIDDLE_NAME",
      "SUFFIX",
      "VOTER_STATUS",
      "Middle Initial",
      "Name Suffix",
    ];
    const rows = [["OH0012345678", "LEE", "ROBERT", "ALLEN", "JR", "CONFIRMATION", "A", "JR"]];
    const m = autoMatch(headers, rows);
    expect(m).toMatchObject({
      MIDDLE_NAME: "middle_name",
      SUFFIX: "name_suffix",
      FIRST_NAME: "first_name",
      LAST_NAME: "last_name",
    });
    const cells = compileMapping(headers, {
      FIRST_NAME: "first_name",
      LAST_NAME: "last_name",
      MIDDLE_NAME: "middle_name",
      SUFFIX: "name_suffix",
      VOTER_STATUS: "status",
    }).build(rows[0]);
    expect(cells).toMatchObject({
      first_name: "ROBERT",
      middle_name: "ALLEN",
      last_name: "LEE",
      name_suffix: "JR",
      status: "Inactive",
      status_code: "CONFIRMATION",
    });
    expect(cleanImportRow(cells)).toMatchObject({ middle_name: "ALLEN", name_suffix: "JR" });
  });

  test("a header that says email but holds no addresses is not paired as email", () => {
    const s = suggestPairings(
      ["email", "first_name", "last_name"],
      [
        ["n/a", "a", "b"],
        ["none", "c", "d"],
        ["-", "e", "f"],
      ],
    );
    expect(s[0].target).toBe(IGNORE);
  });
});

describe("validate mapping", () => {
  const headers = ["First", "Surname", "Mail", "Tel", "G2020", "G2022"];
  const rows = [["Ann", "Lee", "ann-at-example", "n/a", "Y", "N"]];
  test("required fields, duplicate targets, email and phone warnings", () => {
    const r = validateMapping(headers, rows, {
      First: "first_name",
      Surname: "first_name",
      Mail: "email",
      Tel: "phone",
      G2020: ELECTION_HISTORY,
      G2022: ELECTION_HISTORY,
    });
    expect(r.isValid).toBe(false);
    expect(r.issues).toContain("Required field 'Last Name' is not mapped");
    expect(r.issues).toContain("Columns 'First', 'Surname' are all mapped to 'First Name'");
    expect(r.issues).toContain("Column 'Mail' may not contain valid email addresses");
    expect(r.issues).toContain("Column 'Tel' may not contain valid phone numbers");
    expect(r.issues.join()).not.toMatch(/G2020/); // several history columns may share the history target
  });
  test("a complete mapping is valid, with suggestions for ignored columns", () => {
    const r = validateMapping(["First", "Last", "Email"], [["A", "B", "a@b.org"]], {
      First: "first_name",
      Last: "last_name",
      Email: IGNORE,
    });
    expect(r).toMatchObject({ isValid: true, issues: [] });
    expect(r.suggestions[0]).toMatch(/Map 'Email' to 'Email'/);
  });
  test("new field key normalisation (spec/1 §5)", () => {
    expect(normalizeFieldKey("County Commission District #2")).toBe("county_commission_district_2");
  });
});
