/**
 * Item 8: CSV export cells holding a semicolon or a tab are quoted as well, so a spreadsheet that
 * splits on ";" (or tabs) never sees a fragment that starts with "=".
 */
import Papa from "papaparse";
import { describe, expect, test } from "vitest";
import { toCsv } from "@/lib/csv";
import { csvRows, exportColumns, neutraliseCell } from "@/features/voters/utils/exportWriter";

describe("8. CSV export quoting", () => {
  test("cells with ; or a tab are quoted, and no ;-split fragment starts a formula", () => {
    const columns = exportColumns([]).filter((c) => ["first_name", "last_name", "notes"].includes(c.key));
    const text = csvRows(
      [{ first_name: 'Ann;=HYPERLINK("http://evil")', last_name: "Tab\t=1+1", notes: "plain" }],
      columns,
    );
    const [first, last, notes] = Papa.parse<string[]>(text.trim(), { delimiter: "," }).data[0];
    expect(first).toBe('Ann;=HYPERLINK("http://evil")');
    expect(last).toBe("Tab\t=1+1");
    expect(notes).toBe("plain");
    // What a semicolon- or tab-splitting reader sees: only quoted runs, none starting with "=".
    for (const sep of [";", "\t"]) {
      const cells = Papa.parse<string[]>(text.trim(), { delimiter: sep }).data[0];
      expect(cells.some((c) => /^[=+\-@]/.test(c))).toBe(false);
    }
  });
});

describe("8. formulas neutralised without corrupting numbers", () => {
  test("-5 and -1.5e3 stay numbers; formulas, + phones and - expressions get a leading '", () => {
    const text = toCsv(
      ["a"],
      [
        ["-5"],
        ["-1.5e3"],
        ["-.5"],
        ["=1+1"],
        ["-2+3"],
        ["-5 apples"],
        ["+14155550123"],
        ["@SUM(A1)"],
        ["\t=1"],
        ["-"],
        ["5"],
      ],
    );
    const cells = Papa.parse<string[]>(text.trim())
      .data.slice(1)
      .map((r) => r[0]);
    expect(cells).toEqual([
      "-5",
      "-1.5e3",
      "-.5",
      "'=1+1",
      "'-2+3",
      "'-5 apples",
      "'+14155550123",
      "'@SUM(A1)",
      "'\t=1",
      "'-",
      "5",
    ]);
  });
  test("the voter export follows the same rule", () => {
    expect([neutraliseCell("-5"), neutraliseCell("-1+1"), neutraliseCell("=A1")]).toEqual(["-5", "'-1+1", "'=A1"]);
  });
});
