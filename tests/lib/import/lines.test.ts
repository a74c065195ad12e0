/**
 * RowSource.lastLines(): the file line each returned row starts on (delimited text), with blank
 * lines, quoted line breaks, CRLF / LF / CR files and slice boundaries (including 1 MB ones).
 */
import { describe, expect, test } from "vitest";
import { openDelimitedSource, recordLineCount } from "@/lib/import/csvSource";
import type { RowSource } from "@/lib/import/rowSource";

const blob = (data: string | Uint8Array) => new Blob([data as BlobPart]);

async function readAll(src: RowSource, batch: number): Promise<{ rows: string[][]; lines: number[] }> {
  const rows: string[][] = [];
  const lines: number[] = [];
  for (;;) {
    const got = await src.next(batch);
    const at = src.lastLines();
    expect(at).toHaveLength(got.length);
    if (got.length === 0) return { rows, lines };
    rows.push(...got);
    lines.push(...at);
  }
}

describe("line numbers of delimited rows", () => {
  const crlf =
    "Name,Notes,Zip\r\n" + // 1
    "\r\n" + // 2 blank
    'Ann,"one\r\ntwo",02134\r\n' + // 3-4
    ",,\r\n" + // 5 separators only
    "Bo,plain,00501\r\n" + // 6
    "\r\n" + // 7
    "\r\n" + // 8
    'Cy,"a\nb\nc",27601\r\n' + // 9-11: bare LFs inside quotes in a CRLF file
    '"Di ""D""",x,1'; // 12, no final line break
  const expected = [
    ["Ann", "one\r\ntwo", "02134"],
    ["Bo", "plain", "00501"],
    ["Cy", "a\nb\nc", "27601"],
    ['Di "D"', "x", "1"],
  ];

  test.each([1, 2, 3, 4, 5, 7, 16, 1024 * 1024])(
    "CRLF file, blank lines, quoted multi-line fields (slices of %i bytes)",
    async (sliceSize) => {
      for (const batch of [1, 2, 100]) {
        const src = await openDelimitedSource(blob(crlf), { sliceSize });
        expect(src.lastLines()).toEqual([]);
        expect(src.headers).toEqual(["Name", "Notes", "Zip"]);
        const { rows, lines } = await readAll(src, batch);
        expect(rows).toEqual(expected);
        expect(lines).toEqual([3, 6, 9, 12]);
      }
    },
  );

  test("the same file with LF and with CR line endings", async () => {
    for (const nl of ["\n", "\r"]) {
      const text = crlf.replace(/\r\n(?=(?:[^"]*"[^"]*")*[^"]*$)/g, nl); // only the line breaks outside quotes
      const src = await openDelimitedSource(blob(text), { sliceSize: 3 });
      const { rows, lines } = await readAll(src, 2);
      expect(rows).toEqual(expected);
      expect(lines).toEqual([3, 6, 9, 12]);
    }
  });

  test("blank lines before the header count; a batch's lines match its rows exactly", async () => {
    const src = await openDelimitedSource(blob("\n\n  \nid;name\n1;Ann\n\n2;Bo\n3;Cy\n"), { sliceSize: 2 });
    expect(src.headers).toEqual(["id", "name"]);
    expect(await src.next(2)).toEqual([
      ["1", "Ann"],
      ["2", "Bo"],
    ]);
    expect(src.lastLines()).toEqual([5, 7]);
    expect(await src.next(2)).toEqual([["3", "Cy"]]);
    expect(src.lastLines()).toEqual([8]);
    expect(await src.next(2)).toEqual([]);
    expect(src.lastLines()).toEqual([]);
  });

  test("mixed endings: LF-detected file with some CRLF lines, CR-detected file with a CRLF", () => {
    expect(recordLineCount(["a", "b\r"], "\n")).toBe(1);
    expect(recordLineCount(["a", "x\r\ny\r"], "\n")).toBe(2);
    expect(recordLineCount(["\nb", "c"], "\r")).toBe(1);
    expect(recordLineCount(["a\r\nb\rc\nd", ""], "\r\n")).toBe(4);
  });

  test("an unquoted record across a bare LF in a CRLF file spans two lines", async () => {
    const src = await openDelimitedSource(blob("a,b\r\n1,2\n3\r\n4,5\r\n"));
    expect(await src.next(10)).toEqual([
      ["1", "2\n3"],
      ["4", "5"],
    ]);
    expect(src.lastLines()).toEqual([2, 4]);
  });
});

/**
 * A generated multi-megabyte file with every kind of record, and the line each row should carry,
 * counted while the file is built.
 */
function bigFile(
  records: number,
  seed: number,
  multiLine: number,
): { text: string; rows: string[][]; lines: number[] } {
  let text = "voter_id,name,notes\r\n";
  let line = 2;
  const rows: string[][] = [];
  const lines: number[] = [];
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < records; i++) {
    const kind = rand();
    if (kind < 0.1) {
      text += "\r\n";
      line += 1;
    } else if (kind < 0.15) {
      text += ",,\r\n";
      line += 1;
    } else if (kind < 0.15 + multiLine) {
      const breaks = 1 + Math.floor(rand() * 3);
      const parts = Array.from({ length: breaks + 1 }, (_, k) => `part ${k} of ${i}, "quoted"`);
      const sep = rand() < 0.5 ? "\r\n" : "\n";
      const notes = parts.join(sep);
      text += `${i},Name ${i},"${notes.replace(/"/g, '""')}"\r\n`;
      rows.push([String(i), `Name ${i}`, notes]);
      lines.push(line);
      line += breaks + 1;
    } else {
      const note = `plain note ${"x".repeat(Math.floor(rand() * 40))}`;
      text += `${i},Name ${i},${note}\r\n`;
      rows.push([String(i), `Name ${i}`, note]);
      lines.push(line);
      line += 1;
    }
  }
  return { text, rows, lines };
}

describe("line numbers across slice boundaries", () => {
  test.each([
    ["a quarter of the records multi-line", 0.25],
    ["a few multi-line records among long single-line runs", 0.0005],
  ])("a generated ~3 MB file, %s: default 1 MB slices and odd small ones", async (_label, multiLine) => {
    const big = bigFile(60_000, 7, multiLine);
    expect(big.text.length).toBeGreaterThan(2 * 1024 * 1024);
    for (const sliceSize of [1024 * 1024, 65_537, 4099]) {
      const src = await openDelimitedSource(blob(big.text), { sliceSize });
      const { rows, lines } = await readAll(src, 997);
      expect(rows.length).toBe(big.rows.length);
      expect(rows).toEqual(big.rows);
      expect(lines).toEqual(big.lines);
    }
  });

  /** Pads the start so that `marker` begins `shift` bytes before the 1 MB boundary. */
  function around1MB(marker: string, shift: number): { text: string; markerLine: number } {
    const head = "id,notes\r\n";
    const filler: string[] = [];
    let size = head.length;
    const target = 1024 * 1024 - shift;
    let i = 0;
    while (size + 80 < target) {
      const row = `${i},${"f".repeat(30)}\r\n`;
      filler.push(row);
      size += row.length;
      i++;
    }
    // one last filler row of exactly the length left, so the marker row starts at `target`
    const id = `${i},`;
    filler.push(`${id}${"g".repeat(target - size - id.length - 2)}\r\n`);
    const text = head + filler.join("") + marker + "after,1\r\n";
    expect(text.indexOf(marker)).toBe(target);
    return { text, markerLine: filler.length + 2 };
  }

  test("a CRLF split by the 1 MB boundary, and a quoted multi-line field straddling it", async () => {
    // the marker row's "\r" is the slice's last byte, its "\n" the next slice's first
    const crlfCase = around1MB("split,row\r\n", "split,row".length + 1);
    // the boundary falls inside the quoted field, between its two line breaks
    const quotedCase = around1MB('q,"first\r\nsecond\nthird"\r\n', 'q,"first\r\nsec'.length);
    for (const { text, markerLine } of [crlfCase, quotedCase]) {
      expect(text.length).toBeGreaterThan(1024 * 1024);
      const src = await openDelimitedSource(blob(text));
      const { rows, lines } = await readAll(src, 5000);
      const at = rows.findIndex((r) => r[0] === "split" || r[0] === "q");
      expect(lines[at]).toBe(markerLine);
      expect(rows[at + 1]).toEqual(["after", "1"]);
      expect(lines[at + 1]).toBe(markerLine + (rows[at][0] === "q" ? 3 : 1));
      expect(lines).toEqual(rows.map((_, k) => k + 2 + (k > at ? (rows[at][0] === "q" ? 2 : 0) : 0)));
    }
    expect(crlfCase.text.slice(1024 * 1024 - 1, 1024 * 1024 + 1)).toBe("\r\n");
    expect(quotedCase.text.slice(1024 * 1024 - 3, 1024 * 1024 + 3)).toBe("second");
  });
});
