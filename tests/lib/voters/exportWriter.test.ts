import Papa from "papaparse";
import * as XLSX from "xlsx";
import { describe, expect, test } from "vitest";
import { CsvExportWriter, XlsxExportWriter, cellValue, exportColumns, neutraliseCell } from "../../../src/features/voters/utils/exportWriter";

const cols = exportColumns([{ key: "custom_1", label: "Shirt" }]);
const voters = [
  { _id: "v1", _creationTime: 0, first_name: "Ada", last_name: "=HYPERLINK(\"x\")", email: "a@b.c", from_state_database: true, state_voter_history: 3, custom_fields: { custom_1: "+M" }, notes: "line1\nline2, \"q\"" },
  { _id: "v2", _creationTime: 0, first_name: "@Bob", last_name: "-1", phone: "555" },
];

describe("export writer", () => {
  test("neutralises formula cells only", () => {
    expect(neutraliseCell("=1+1")).toBe("'=1+1");
    expect(neutraliseCell("+1")).toBe("'+1");
    expect(neutraliseCell("-2")).toBe("'-2");
    expect(neutraliseCell("@SUM")).toBe("'@SUM");
    expect(neutraliseCell("Ada")).toBe("Ada");
    expect(neutraliseCell("a=b")).toBe("a=b");
  });

  test("columns include every voter field and custom fields", () => {
    const keys = cols.map((c) => c.key);
    expect(keys).toEqual(expect.arrayContaining(["first_name", "state_voter_history", "state_verified_zip", "custom_1", "notes"]));
    expect(cellValue(voters[0], cols.find((c) => c.key === "from_state_database")!)).toBe("Yes");
  });

  test("CSV round-trips through a parser, in chunks", async () => {
    const w = new CsvExportWriter(cols);
    w.addPage([voters[0]]);
    w.addPage([voters[1]]);
    const text = (await w.finish().text()).replace(/^\uFEFF/, "");
    const parsed = Papa.parse<string[]>(text.trim(), { skipEmptyLines: true }).data;
    expect(parsed).toHaveLength(3);
    const h = parsed[0];
    const row = (i: number, label: string) => parsed[i][h.indexOf(label)];
    expect(row(1, "First Name")).toBe("Ada");
    expect(row(1, "Last Name")).toBe("'=HYPERLINK(\"x\")");
    expect(row(1, "Shirt")).toBe("'+M");
    expect(row(1, "Notes")).toBe("line1\nline2, \"q\"");
    expect(row(2, "First Name")).toBe("'@Bob");
    expect(row(2, "Last Name")).toBe("'-1");
    expect(row(2, "Phone")).toBe("555");
  });

  test("XLSX builds in batches and reads back", () => {
    const w = new XlsxExportWriter(XLSX, cols);
    w.addPage([voters[0]]);
    w.addPage([voters[1]]);
    expect(w.rowCount).toBe(2);
    const blob = w.finish();
    expect(blob.size).toBeGreaterThan(0);
    return blob.arrayBuffer().then((buf) => {
      const wb = XLSX.read(new Uint8Array(buf), { type: "array" });
      const rows = XLSX.utils.sheet_to_json<Record<string, string>>(wb.Sheets.Voters, { defval: "" });
      expect(rows).toHaveLength(2);
      expect(rows[0]["First Name"]).toBe("Ada");
      expect(rows[0]["Last Name"]).toBe("'=HYPERLINK(\"x\")");
      expect(rows[0]["Shirt"]).toBe("'+M");
      expect(rows[1]["First Name"]).toBe("'@Bob");
    });
  });
});
