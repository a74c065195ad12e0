import { strFromU8, unzipSync } from "fflate";
import Papa from "papaparse";
import * as XLSX from "xlsx";
import { describe, expect, test } from "vitest";
import {
  CsvExportWriter,
  ExportLimitError,
  XLSX_MAX_DATA_ROWS,
  XlsxExportWriter,
  cellValue,
  csvCell,
  csvEscape,
  csvHeader,
  csvRows,
  exportColumns,
  neutraliseCell,
} from "@/features/voters/utils/exportWriter";

const cols = exportColumns([{ key: "custom_1", label: "Shirt" }]);
const voters = [
  {
    _id: "v1",
    _creationTime: 0,
    first_name: "Ada",
    last_name: '=HYPERLINK("x")',
    email: "a@b.c",
    from_state_database: true,
    state_voter_history: 3,
    custom_fields: { custom_1: "+M" },
    notes: 'line1\nline2, "q"',
  },
  { _id: "v2", _creationTime: 0, first_name: "@Bob", last_name: "-1", phone: "555" },
];

describe("export writer", () => {
  test("neutralises formula cells only", () => {
    expect(neutraliseCell("=1+1")).toBe("'=1+1");
    expect(neutraliseCell("+1")).toBe("'+1");
    expect(neutraliseCell("-2")).toBe("-2"); // a negative number is a number, not a formula
    expect(neutraliseCell("-2+1")).toBe("'-2+1");
    expect(neutraliseCell("@SUM")).toBe("'@SUM");
    expect(neutraliseCell("Ada")).toBe("Ada");
    expect(neutraliseCell("a=b")).toBe("a=b");
  });

  test("columns include every voter field and custom fields", () => {
    const keys = cols.map((c) => c.key);
    expect(keys).toEqual(
      expect.arrayContaining(["first_name", "state_voter_history", "state_verified_zip", "custom_1", "notes"]),
    );
    expect(
      cellValue(
        voters[0],
        cols.find((c) => c.key === "from_state_database")!,
      ),
    ).toBe("Yes");
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
    expect(row(1, "Last Name")).toBe('\'=HYPERLINK("x")');
    expect(row(1, "Shirt")).toBe("'+M");
    expect(row(1, "Notes")).toBe('line1\nline2, "q"');
    expect(row(2, "First Name")).toBe("'@Bob");
    expect(row(2, "Last Name")).toBe("-1");
    expect(row(2, "Phone")).toBe("555");
  });

  test("XLSX streams in batches and reads back: headers, values, neutralised cells, custom field", async () => {
    const w = new XlsxExportWriter(cols);
    w.addPage([voters[0]]);
    w.addPage([]);
    w.addPage([
      voters[1],
      { _id: "v3", first_name: "=cmd|' /C calc'!A0", last_name: 'a<b>&"c"\u0001\u0007_x0041_', notes: "  padded\t " },
    ]);
    expect(w.rowCount).toBe(3);
    const blob = w.finish();
    expect(blob.type).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const wb = XLSX.read(new Uint8Array(await blob.arrayBuffer()), { type: "array" });
    expect(wb.SheetNames).toEqual(["Voters"]);
    const aoa = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets.Voters, { header: 1, defval: "" });
    expect(aoa[0]).toEqual(cols.map((c) => c.label));
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets.Voters, { defval: "" });
    expect(rows).toHaveLength(3);
    expect(rows[0]["ID"]).toBe("v1");
    expect(rows[0]["First Name"]).toBe("Ada");
    // string cells are never evaluated in XLSX: exact values, no ' prefix
    expect(rows[0]["Last Name"]).toBe('=HYPERLINK("x")');
    expect(rows[0]["Shirt"]).toBe("+M");
    expect(rows[0]["Email"]).toBe("a@b.c");
    expect(rows[0]["Notes"]).toBe('line1\nline2, "q"');
    expect(rows[0]["State Voter History (0-4)"]).toBe(3);
    expect(rows[0]["Created At"]).toBe("1970-01-01T00:00:00.000Z");
    expect(rows[1]["First Name"]).toBe("@Bob");
    expect(rows[1]["Last Name"]).toBe("-1");
    expect(rows[1]["Phone"]).toBe("555");
    expect(rows[1]["Shirt"]).toBe("");
    expect(rows[2]["First Name"]).toBe("=cmd|' /C calc'!A0");
    // XML-special characters survive, XML-illegal control characters are dropped, _xHHHH_ stays literal
    expect(rows[2]["Last Name"]).toBe('a<b>&"c"_x0041_');
    expect(rows[2]["Notes"]).toBe("  padded\t ");
  });

  test("XLSX sheet XML: formula-looking text and phones are inline strings, exact, never formulas", async () => {
    const phoneCols = exportColumns([{ key: "custom_1", label: "=Label" }]);
    const w = new XlsxExportWriter(phoneCols);
    w.addPage([
      {
        _id: "v1",
        first_name: "=1+2",
        last_name: "@SUM(A1)",
        phone: "+44 20 7946 0958",
        notes: "-5",
        state_voter_history: 2,
        custom_fields: { custom_1: "\t=cmd" },
      },
    ]);
    const bytes = new Uint8Array(await w.finish().arrayBuffer());
    const sheet = strFromU8(unzipSync(bytes)["xl/worksheets/sheet1.xml"]);
    const ref = (key: string, row: number) =>
      XLSX.utils.encode_cell({ r: row - 1, c: phoneCols.findIndex((c) => c.key === key) });
    const cell = (key: string, row: number) => sheet.match(new RegExp(`<c r="${ref(key, row)}"[^>]*>.*?</c>`))?.[0];
    const inline = (key: string, row: number, text: string, space = "") =>
      `<c r="${ref(key, row)}" t="inlineStr"><is><t${space}>${text}</t></is></c>`;
    expect(cell("phone", 2)).toBe(inline("phone", 2, "+44 20 7946 0958"));
    expect(cell("first_name", 2)).toBe(inline("first_name", 2, "=1+2"));
    expect(cell("last_name", 2)).toBe(inline("last_name", 2, "@SUM(A1)"));
    expect(cell("notes", 2)).toBe(inline("notes", 2, "-5"));
    expect(cell("custom_1", 2)).toBe(inline("custom_1", 2, "\t=cmd", ' xml:space="preserve"'));
    expect(cell("custom_1", 1)).toBe(inline("custom_1", 1, "=Label"));
    // a numeric voter field stays a number cell
    expect(cell("state_voter_history", 2)).toBe(`<c r="${ref("state_voter_history", 2)}"><v>2</v></c>`);
    expect(sheet).not.toMatch(/<f[ >]/);
    expect(sheet).not.toContain("'");
    // and a reader gets the exact text back
    const ws = XLSX.read(bytes, { type: "array" }).Sheets.Voters;
    expect(ws[ref("phone", 2)]).toMatchObject({ t: "s", v: "+44 20 7946 0958" });
    expect(ws[ref("first_name", 2)]).toMatchObject({ t: "s", v: "=1+2" });
    expect(ws[ref("first_name", 2)].f).toBeUndefined();
    expect(ws[ref("state_voter_history", 2)]).toMatchObject({ t: "n", v: 2 });
  });

  test("CSV: OWASP rule — formula-leading cells get ' and are always quoted; other cells as before", () => {
    expect(csvCell("=1+2")).toBe(`"'=1+2"`);
    expect(csvCell("+44 20 7946 0958")).toBe(`"'+44 20 7946 0958"`);
    expect(csvCell("-5")).toBe("-5");
    expect(csvCell("-5-5")).toBe(`"'-5-5"`);
    expect(csvCell("@SUM(A1)")).toBe(`"'@SUM(A1)"`);
    expect(csvCell("\t=1")).toBe(`"'\t=1"`);
    expect(csvCell("\r=1")).toBe(`"'\r=1"`);
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvCell("Ada")).toBe("Ada");
    expect(csvCell("a=b")).toBe("a=b");
    expect(csvCell("Smith, Jr.")).toBe(`"Smith, Jr."`);
    expect(csvCell('say "hi"')).toBe(`"say ""hi"""`);
    expect(csvCell("")).toBe("");
    expect(csvEscape("plain")).toBe("plain");
    const columns = exportColumns([{ key: "custom_1", label: "+Tag" }]).filter((c) =>
      ["first_name", "phone", "notes", "custom_1"].includes(c.key),
    );
    expect(csvHeader(columns)).toBe(`First Name,Phone,Notes,"'+Tag"\r\n`);
    const text = csvRows(
      [{ first_name: "=1+2", phone: "+44 20 7946 0958", notes: "ok", custom_fields: { custom_1: "-x" } }],
      columns,
    );
    expect(text).toBe(`"'=1+2","'+44 20 7946 0958",ok,"'-x"\r\n`);
    expect(Papa.parse<string[]>(text.trim()).data[0]).toEqual(["'=1+2", "'+44 20 7946 0958", "ok", "'-x"]);
  });

  test("cellValue is the stored text (neutralising is the CSV writer's job)", () => {
    const phone = cols.find((c) => c.key === "phone")!;
    expect(cellValue({ phone: "+44 20 7946 0958" }, phone)).toBe("+44 20 7946 0958");
    expect(
      cellValue(
        { custom_fields: { custom_1: "=1+2" } },
        cols.find((c) => c.key === "custom_1")!,
      ),
    ).toBe("=1+2");
  });

  test("the state file's codes and the vote history are exported readably", () => {
    const cols = exportColumns([]);
    const col = (key: string) => cols.find((c) => c.key === key)!;
    const voter = {
      status: "Inactive",
      status_code: "R",
      party_code: "DEM",
      vote_history: [
        { election: "GENERAL-11/08/2022", date: "2022-11-08", type: "General", method: "Absentee" },
        { election: "PRIMARY-05/03/2022", date: "2022-05-03", type: "Primary", party: "Democrat" },
        { election: "E2020" },
      ],
    };
    expect(cellValue(voter, col("status_code"))).toBe("R");
    expect(cellValue(voter, col("party_code"))).toBe("DEM");
    expect(cellValue(voter, col("vote_history"))).toBe(
      "GENERAL-11/08/2022 (Absentee); PRIMARY-05/03/2022 (Democrat ballot); E2020",
    );
    expect(cellValue({}, col("vote_history"))).toBe("");
  });

  test("XLSX of 50,000 rows in pages of 1,000", async () => {
    const w = new XlsxExportWriter(cols);
    for (let p = 0; p < 50; p++) {
      w.addPage(
        Array.from({ length: 1000 }, (_, i) => {
          const n = p * 1000 + i;
          return {
            _id: `v${n}`,
            first_name: `First${n}`,
            last_name: n % 7 === 0 ? `=cmd${n}` : `Last${n}`,
            state_voter_history: n % 5,
            custom_fields: { custom_1: `S${n % 3}` },
          };
        }),
      );
    }
    expect(w.rowCount).toBe(50_000);
    const blob = w.finish();
    const wb = XLSX.read(new Uint8Array(await blob.arrayBuffer()), { type: "array", dense: true });
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets.Voters, { defval: "" });
    expect(rows).toHaveLength(50_000);
    expect(rows[0]).toMatchObject({
      ID: "v0",
      "First Name": "First0",
      "Last Name": "=cmd0",
      Shirt: "S0",
      "State Voter History (0-4)": 0,
    });
    expect(rows[49_999]).toMatchObject({
      ID: "v49999",
      "First Name": "First49999",
      "Last Name": "Last49999",
      Shirt: "S1",
      "State Voter History (0-4)": 4,
    });
  }, 60_000); // ~2 s alone, several times that beside the other component tests

  test("XLSX refuses more rows than Excel holds, before writing them", () => {
    const w = new XlsxExportWriter(cols);
    const page = Array.from({ length: 1000 }, (_, i) => ({ _id: `v${i}` }));
    // fake the count rather than write a million rows here
    (w as unknown as { rows: number }).rows = XLSX_MAX_DATA_ROWS - 500;
    expect(() => w.addPage(page)).toThrow(ExportLimitError);
    expect(() => w.addPage(page)).toThrow(/1,048,575 rows/);
    expect(w.rowCount).toBe(XLSX_MAX_DATA_ROWS - 500);
    w.addPage(page.slice(0, 500));
    expect(w.rowCount).toBe(XLSX_MAX_DATA_ROWS);
  });
});
