/** openImportFile's refusals: renamed binaries, header-only files; and the peeked first row is not lost. */
import { strToU8, zipSync } from "fflate";
import * as XLSX from "xlsx";
import { describe, expect, test } from "vitest";
import { NO_DATA_ROWS, NO_DATA_ROWS_ERROR, PARSE_ERROR } from "@/lib/import/fileType";
import { ImportFileError, looksLikeBinary, openImportFile } from "@/lib/import/openFile";

const named = (data: string | Uint8Array, name: string) => Object.assign(new Blob([data as BlobPart]), { name });

/** A ByteSource that records every byte range read from it. */
function spied(data: Uint8Array, name: string) {
  const blob = new Blob([data as BlobPart]);
  const reads: [number, number][] = [];
  return {
    reads,
    file: {
      name,
      size: blob.size,
      slice(start: number, end: number) {
        reads.push([start, end]);
        return blob.slice(start, end);
      },
    },
  };
}

const PNG = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a, // signature
  0x00,
  0x00,
  0x00,
  0x0d,
  0x49,
  0x48,
  0x44,
  0x52,
  0x00,
  0x00,
  0x00,
  0x01,
  0x00,
  0x00,
  0x00,
  0x01,
  0x08,
  0x06,
  0x00,
  0x00,
  0x00,
  0x1f,
  0x15,
  0xc4,
  0x89, // IHDR 1x1 RGBA
  0x00,
  0x00,
  0x00,
  0x0d,
  0x49,
  0x44,
  0x41,
  0x54,
  0x78,
  0x9c,
  0x63,
  0xf8,
  0xcf,
  0xc0,
  0xf0,
  0x1f,
  0x00,
  0x05,
  0x00,
  0x01,
  0xff,
  0x89,
  0x99,
  0x3d,
  0x1d, // IDAT
  0x00,
  0x00,
  0x00,
  0x00,
  0x49,
  0x45,
  0x4e,
  0x44,
  0xae,
  0x42,
  0x60,
  0x82, // IEND
]);

async function refusal(file: Parameters<typeof openImportFile>[0]) {
  const err = await openImportFile(file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportFileError);
  return err as ImportFileError;
}

describe("renamed binary files are refused before any row is read", () => {
  test.each([
    ["a PNG renamed .csv", PNG, "photo.csv"],
    ["a zip renamed .csv", zipSync({ "voters.csv": strToU8("first_name,last_name\nAnn,Lee\n") }), "voters.csv"],
    [
      "an .xlsx renamed .txt",
      new Uint8Array(
        XLSX.write(XLSX.utils.book_new(XLSX.utils.aoa_to_sheet([["a"], ["1"]])), {
          type: "array",
          bookType: "xlsx",
        }) as ArrayBuffer,
      ),
      "export.txt",
    ],
    [
      "an .xls renamed .tsv",
      new Uint8Array(
        XLSX.write(XLSX.utils.book_new(XLSX.utils.aoa_to_sheet([["a"], ["1"]])), {
          type: "array",
          bookType: "biff8",
        }) as ArrayBuffer,
      ),
      "export.tsv",
    ],
  ])("%s: Error parsing file", async (_label, bytes, name) => {
    const err = await refusal(named(bytes, name));
    expect({ title: err.title, description: err.description }).toEqual(PARSE_ERROR);
  });

  test("only the first 64 KB of a large binary file is read", async () => {
    const bytes = new Uint8Array(5 * 1024 * 1024);
    bytes.set(PNG);
    for (let i = PNG.length; i < bytes.length; i++) bytes[i] = (i * 7919) % 251;
    const { file, reads } = spied(bytes, "big.csv");
    const err = await refusal(file);
    expect(err.title).toBe("Error parsing file");
    expect(reads).toEqual([[0, 65536]]);
  });

  test("control characters without NUL: refused above 10%, a stray form feed or Ctrl-Z is still text", () => {
    const text = strToU8("first_name,last_name\r\nAnn,Lee\r\n");
    const noisy = new Uint8Array(200);
    for (let i = 0; i < noisy.length; i++) noisy[i] = i % 5 === 0 ? 1 + (i % 8) : 0x41 + (i % 26); // 20% controls
    expect(looksLikeBinary(noisy)).toBe(true);
    expect(looksLikeBinary(new Uint8Array([...text, 0x0c, ...text, 0x1a]))).toBe(false);
    expect(looksLikeBinary(new Uint8Array([...text, 0x00]))).toBe(true);
    expect(looksLikeBinary(new Uint8Array([0xef, 0xbb, 0xbf, ...strToU8("José,Zürich\n")]))).toBe(false);
  });

  test("UTF-16 text with its BOM is not binary (its NUL bytes are half of each character)", async () => {
    const csv = "first_name,last_name\r\nJosé,Müller\r\n";
    const le = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(csv, "utf16le"))]);
    expect(looksLikeBinary(le)).toBe(false);
    const src = await openImportFile(named(le, "voters.csv"));
    expect(src.encoding).toBe("utf-16le");
    expect(await src.next(5)).toEqual([["José", "Müller"]]);
    // but a NUL character inside UTF-16 text is binary
    expect(
      looksLikeBinary(new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from("a,b\u0000\n", "utf16le"))])),
    ).toBe(true);
  });
});

describe("a header row with no data rows", () => {
  test("the constant and its message", () => {
    expect(NO_DATA_ROWS).toBe("No data rows found");
    expect(NO_DATA_ROWS_ERROR).toEqual({
      title: "No data rows found",
      description: "The file has a header row but no data rows. Add rows below the header and try again.",
    });
  });

  test.each([
    ["header with a line break", "first_name,last_name,zip\r\n"],
    ["header without a line break", "first_name,last_name,zip"],
    ["header then blank and separator-only lines", "first_name;last_name;zip\n\n;;\n   \n\n"],
  ])("delimited: %s", async (_label, text) => {
    const err = await refusal(named(text, "voters.csv"));
    expect(err.title).toBe(NO_DATA_ROWS);
    expect(err.description).toBe(
      "The file has a header row but no data rows. Add rows below the header and try again.",
    );
    expect(err.message).toBe(
      "No data rows found: The file has a header row but no data rows. Add rows below the header and try again.",
    );
  });

  test.each(["xlsx", "biff8"] as const)(
    "spreadsheet (%s): header only, and header over empty rows",
    async (bookType) => {
      for (const aoa of [[["First Name", "Last Name"]], [["First Name", "Last Name"], [], ["", "  "]]]) {
        const bytes = new Uint8Array(
          XLSX.write(XLSX.utils.book_new(XLSX.utils.aoa_to_sheet(aoa)), { type: "array", bookType }) as ArrayBuffer,
        );
        const err = await refusal(named(bytes, bookType === "xlsx" ? "voters.xlsx" : "voters.xls"));
        expect({ title: err.title, description: err.description }).toEqual(NO_DATA_ROWS_ERROR);
      }
    },
  );

  test("an empty file is still a parse error", async () => {
    const err = await refusal(named("", "voters.csv"));
    expect(err.title).toBe("Error parsing file");
  });

  test("the peeked first data row is still the first row next() returns, with its line", async () => {
    const src = await openImportFile(named("id,name\n\n\n7,Ann\n8,Bo\n", "voters.csv"));
    expect(src.totalRows).toBeNull();
    expect(await src.next(1)).toEqual([["7", "Ann"]]);
    expect(src.lastLines()).toEqual([4]);
    expect(await src.next(5)).toEqual([["8", "Bo"]]);
    expect(src.lastLines()).toEqual([5]);
    expect(await src.next(5)).toEqual([]);
    expect(src.totalRows).toBe(2);
  });

  test("peeking parses only the first slice of a large file", async () => {
    const text = "id,name\n" + Array.from({ length: 200_000 }, (_, i) => `${i},Name ${i}`).join("\n") + "\n";
    const { file } = spied(strToU8(text), "voters.csv");
    expect(file.size).toBeGreaterThan(2 * 1024 * 1024);
    const src = await openImportFile(file);
    expect(src.bytesRead()).toBeLessThanOrEqual(1024 * 1024);
    expect(await src.next(2)).toEqual([
      ["0", "Name 0"],
      ["1", "Name 1"],
    ]);
    expect(src.lastLines()).toEqual([2, 3]);
  });
});
