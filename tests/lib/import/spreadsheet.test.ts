/**
 * Spreadsheet cells as typed values, never Excel's displayed text: dates (1900 and 1904 systems),
 * long IDs, zero-padded ZIPs, booleans, formulas' cached values; .xlsx and .xls (BIFF8) both.
 * Meant to pass in any time zone: run with TZ=America/New_York and TZ=UTC.
 */
import { strToU8, zipSync } from "fflate";
import * as XLSX from "xlsx";
import { describe, expect, test } from "vitest";
import { cellText, exactNumber, openSpreadsheetSource } from "@/lib/import/spreadsheetSource";
import type { RowSource } from "@/lib/import/rowSource";

const DAY = 86_400_000;
/** Excel 1900-system serial of a calendar date (after 1900-02-28), computed in UTC: no time zone involved. */
const serial = (y: number, m: number, d: number, h = 0, min = 0, s = 0) =>
  (Date.UTC(y, m - 1, d, h, min, s) - Date.UTC(1899, 11, 30)) / DAY;

async function readAll(src: RowSource, batch: number): Promise<{ rows: string[][]; lines: number[] }> {
  const rows: string[][] = [];
  const lines: number[] = [];
  for (;;) {
    const got = await src.next(batch);
    expect(src.lastLines()).toHaveLength(got.length);
    if (got.length === 0) return { rows, lines };
    rows.push(...got);
    lines.push(...src.lastLines());
  }
}

const HEADERS = [
  "Voter ID",
  "First",
  "DOB",
  "Registered",
  "ZIP",
  "ZIP4",
  "Score",
  "Active",
  "Precinct",
  "Formula ID",
  "Formula Name",
  "Ratio",
  "Big",
  "Tiny",
  "Delta",
  "Phone",
  "Seen",
  "Flag",
];

/** A sheet as Excel users make them: General-formatted IDs, m/d/yy birth dates, 00000 ZIPs, an empty row. */
function voterSheet(): XLSX.WorkSheet {
  const ws = XLSX.utils.aoa_to_sheet([HEADERS]);
  const put = (ref: string, cell: XLSX.CellObject) => (ws[ref] = cell);
  // row 2
  put("A2", { t: "n", v: 123456789012 }); // General: Excel shows 1.23457E+11
  put("B2", { t: "s", v: "Ada" });
  put("C2", { t: "n", v: serial(1921, 3, 4), z: "m/d/yy" }); // shows 3/4/21
  put("D2", { t: "n", v: serial(1999, 12, 31), z: "m/d/yyyy" });
  put("E2", { t: "n", v: 501, z: "00000" });
  put("F2", { t: "n", v: 21341234, z: "00000\\-0000" });
  put("G2", { t: "n", v: 0.1 });
  put("H2", { t: "b", v: true });
  put("I2", { t: "s", v: "00123" });
  put("J2", { t: "n", v: 123456789012, f: "123456789000+12" });
  put("K2", { t: "s", v: "Lovelace", f: '"Love"&"lace"' });
  put("L2", { t: "n", v: 2 / 3, z: "0.00" }); // shows 0.67
  put("M2", { t: "n", v: 1e21 });
  put("N2", { t: "n", v: 1e-7 });
  put("O2", { t: "n", v: -1234567.25, z: "#,##0.00" }); // shows -1,234,567.25
  put("P2", { t: "s", v: "+44 20 7946 0958" });
  put("Q2", { t: "n", v: serial(1999, 12, 31, 13, 45, 30), z: "m/d/yy h:mm:ss" });
  put("R2", { t: "b", v: false });
  // row 3 left empty; row 4
  put("A4", { t: "n", v: 987654321098765 });
  put("B4", { t: "s", v: "Bo" });
  put("C4", { t: "n", v: serial(1999, 12, 31), z: "m/d/yy" }); // shows 12/31/99
  put("D4", { t: "n", v: serial(2000, 2, 29), z: "yyyy-mm-dd" });
  put("E4", { t: "n", v: 27601, z: "00000" });
  put("F4", { t: "n", v: 276010001, z: "00000\\-0000" });
  put("G4", { t: "n", v: 42 });
  put("H4", { t: "s", v: "TRUE" });
  put("I4", { t: "n", v: 7, z: "000" });
  put("Q4", { t: "n", v: serial(1960, 1, 1), z: "m/d/yy h:mm" }); // midnight: no time part
  ws["!ref"] = "A1:R4";
  return ws;
}

function write(ws: XLSX.WorkSheet, bookType: "xlsx" | "biff8"): Uint8Array {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, "Voters");
  return new Uint8Array(XLSX.write(wb, { type: "array", bookType }) as ArrayBuffer);
}

const ROW2 = [
  "123456789012",
  "Ada",
  "1921-03-04",
  "1999-12-31",
  "00501",
  "02134-1234",
  "0.1",
  "TRUE",
  "00123",
  "123456789012",
  "Lovelace",
  "0.6666666666666666",
  "1000000000000000000000",
  "0.0000001",
  "-1234567.25",
  "+44 20 7946 0958",
  "1999-12-31T13:45:30",
  "FALSE",
];
const ROW4 = [
  "987654321098765",
  "Bo",
  "1999-12-31",
  "2000-02-29",
  "27601",
  "27601-0001",
  "42",
  "TRUE",
  "007",
  "",
  "",
  "",
  "",
  "",
  "",
  "",
  "1960-01-01",
  "",
];

describe("spreadsheet cells are typed values, not displayed text", () => {
  test.each(["xlsx", "biff8"] as const)(
    "%s: exact IDs, ISO dates, padded ZIPs, booleans, formulas, and sheet row numbers",
    async (bookType) => {
      const src = openSpreadsheetSource(write(voterSheet(), bookType));
      expect(src.headers).toEqual(HEADERS);
      expect(src.totalRows).toBe(2);
      expect(src.lastLines()).toEqual([]);
      const { rows, lines } = await readAll(src, 1);
      expect(rows).toEqual([ROW2, ROW4]);
      // the empty sheet row 3 is skipped but still counted
      expect(lines).toEqual([2, 4]);
    },
  );

  test("xlsx: a formula cell keeps its formula in the file but is read by its cached value", () => {
    const bytes = write(voterSheet(), "xlsx");
    const wb = XLSX.read(bytes, { type: "array", dense: true, cellNF: true });
    const cell = (wb.Sheets.Voters["!data"] as XLSX.CellObject[][])[1][9];
    expect(cell.f).toBe("123456789000+12");
    expect(cell.w).toBe("1.23457E+11"); // what the old reader returned
    expect(cellText(cell)).toBe("123456789012");
  });

  test("the sheet's own row numbers: header on row 3, data on rows 4 and 7", async () => {
    const ws = XLSX.utils.sheet_add_aoa(XLSX.utils.aoa_to_sheet([]), [["Name", "ZIP"]], { origin: "A3" });
    XLSX.utils.sheet_add_aoa(ws, [["Ann", { t: "n", v: 2134, z: "00000" }], [], [""], ["Cy", "00501"]], {
      origin: "A4",
    });
    for (const bookType of ["xlsx", "biff8"] as const) {
      const src = openSpreadsheetSource(write(ws, bookType));
      expect(src.headers).toEqual(["Name", "ZIP"]);
      expect(await src.next(10)).toEqual([
        ["Ann", "02134"],
        ["Cy", "00501"],
      ]);
      expect(src.lastLines()).toEqual([4, 7]);
      expect(await src.next(10)).toEqual([]);
      expect(src.lastLines()).toEqual([]);
    }
  });

  test("dates given to SheetJS as local Date objects come back as the same calendar day", async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ["DOB", "Voted"],
      [new Date(1921, 2, 4), new Date(1999, 11, 31)],
    ]);
    for (const bookType of ["xlsx", "biff8"] as const) {
      const src = openSpreadsheetSource(write(ws, bookType));
      expect(await src.next(5)).toEqual([["1921-03-04", "1999-12-31"]]);
    }
  });
});

/** An .xlsx written the way Excel writes it: shared strings, built-in format ids without a numFmt entry, cached formula results. */
function excelStyleXlsx(date1904: boolean, cells: string): Uint8Array {
  const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  const files: Record<string, string> = {
    "[Content_Types].xml":
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    "_rels/.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook ${ns} xmlns:r="${rel}"><workbookPr${date1904 ? ' date1904="1"' : ""}/><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    "xl/_rels/workbook.xml.rels":
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/styles" Target="styles.xml"/>` +
      `<Relationship Id="rId3" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    // xf 0 General, 1 built-in 14 (m/d/yyyy), 2 custom 00000, 3 built-in 22 (m/d/yy h:mm), 4 built-in 30 (a locale date id SheetJS has no table entry for), 5 custom m/d/yy
    "xl/styles.xml":
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet ${ns}><numFmts count="2"><numFmt numFmtId="164" formatCode="00000"/><numFmt numFmtId="165" formatCode="m/d/yy"/></numFmts>` +
      '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills>' +
      '<borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="6"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
      '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="22" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
      '<xf numFmtId="30" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>',
    "xl/sharedStrings.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst ${ns} count="4" uniqueCount="4"><si><t>ID</t></si><si><t>DOB</t></si><si><t>ZIP</t></si><si><t>00501</t></si></sst>`,
    "xl/worksheets/sheet1.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ${ns}><sheetData>${cells}</sheetData></worksheet>`,
  };
  return zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])));
}

describe("an Excel-written .xlsx", () => {
  test("1900 date system: built-in and custom date formats, cached formula results, booleans, errors", async () => {
    const cells =
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="str"><v>Voted</v></c><c r="E1" t="str"><v>Reg</v></c><c r="F1" t="str"><v>Flag</v></c><c r="G1" t="str"><v>Check</v></c><c r="H1" t="str"><v>Local</v></c></row>' +
      `<row r="2"><c r="A2"><v>123456789012</v></c><c r="B2" s="5"><v>${serial(1921, 3, 4)}</v></c><c r="C2" s="2"><v>501</v></c>` +
      `<c r="D2" s="3"><f>DATE(1999,12,31)+TIME(8,5,0)</f><v>${serial(1999, 12, 31, 8, 5, 0)}</v></c><c r="E2" s="1"><v>${serial(1999, 12, 31)}</v></c>` +
      '<c r="F2" t="b"><v>1</v></c><c r="G2" t="e"><f>NA()</f><v>#N/A</v></c>' +
      `<c r="H2" s="4"><v>${serial(1980, 1, 5)}</v></c></row>` +
      '<row r="3"><c r="A3" t="str"><f>TEXT(12,"000")</f><v>012</v></c><c r="B3" s="1"><v>60</v></c><c r="C3" t="s"><v>3</v></c><c r="D3" s="3"><v>0.999999999</v></c></row>';
    const src = openSpreadsheetSource(excelStyleXlsx(false, cells));
    expect(src.headers).toEqual(["ID", "DOB", "ZIP", "Voted", "Reg", "Flag", "Check", "Local"]);
    expect(await src.next(10)).toEqual([
      ["123456789012", "1921-03-04", "00501", "1999-12-31T08:05:00", "1999-12-31", "TRUE", "#N/A", "1980-01-05"],
      // serial 60 is Excel's fictitious 1900-02-29; a time just short of midnight rounds to the next day
      ["012", "1900-02-29", "00501", "1900-01-01", "", "", "", ""],
    ]);
    expect(src.lastLines()).toEqual([2, 3]);
  });

  test("1904 date system (Excel for Mac): serials count from 1904-01-01", async () => {
    const s1904 = (y: number, m: number, d: number) => (Date.UTC(y, m - 1, d) - Date.UTC(1904, 0, 1)) / DAY;
    const cells =
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
      `<row r="2"><c r="A2"><v>42</v></c><c r="B2" s="5"><v>${s1904(1999, 12, 31)}</v></c></row>` +
      `<row r="3"><c r="A3"><v>43</v></c><c r="B3" s="1"><v>${s1904(1961, 8, 4)}</v></c></row>`;
    const src = openSpreadsheetSource(excelStyleXlsx(true, cells));
    expect(await src.next(10)).toEqual([
      ["42", "1999-12-31"],
      ["43", "1961-08-04"],
    ]);
  });
});

describe("exactNumber", () => {
  test("integers without exponent or grouping, decimals in their shortest exact form", () => {
    expect(exactNumber(123456789012)).toBe("123456789012");
    expect(exactNumber(9007199254740993)).toBe("9007199254740992"); // the double the sheet holds
    expect(exactNumber(1.5e22)).toBe("15000000000000000000000");
    expect(exactNumber(-0)).toBe("0");
    expect(exactNumber(0.1)).toBe("0.1");
    expect(exactNumber(1.25e-8)).toBe("0.0000000125");
    expect(exactNumber(-3.5e-7)).toBe("-0.00000035");
    expect(exactNumber(27601.5)).toBe("27601.5");
  });
});
