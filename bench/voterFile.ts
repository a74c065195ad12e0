/**
 * The benchmarks' statewide voter file: NC-style rows (67 columns, faker) written to disk, and
 * imported through the browser's own client path (file-backed Blob → encoding detection →
 * papaparse streaming → runImport → imports.appendBatch over a Convex client).
 */
import fs from "node:fs";
import path from "node:path";
import { faker } from "@faker-js/faker";
import type { ConvexClient } from "convex/browser";
import { convexImportTransport } from "../src/lib/import/convexTransport";
import { openImportFile } from "../src/lib/import/openFile";
import { autoMatch } from "../src/lib/import/pairing";
import { runImport, type ImportProgress, type ImportTransport, type RunImportResult } from "../src/lib/import/runner";
import { layoutRow, NC_HEADERS, toCsv } from "../tests/fixtures/import/layouts";

/** Writes `n` NC-style rows, ~3% exact duplicates and ~1% rows without a last name. */
export async function writeVoterFile(file: string, n: number) {
  faker.seed(n);
  const out = fs.createWriteStream(file);
  out.write(toCsv(NC_HEADERS, []));
  let chunk: string[][] = [];
  for (let i = 0; i < n; i++) {
    const row = layoutRow("nc", i);
    // unique names so the duplicate count is predictable: row i's name carries its index
    row[NC_HEADERS.indexOf("last_name")] = `${row[NC_HEADERS.indexOf("last_name")]}${i}`;
    // a state's file is ordered by county and name, not by voter ID: the IDs are unique but
    // scattered (i ↦ i·7919 mod n is a permutation of the rows), so each batch's new IDs fall
    // between those of the batches before it, as in a real statewide import
    row[NC_HEADERS.indexOf("ncid")] = `BN${String((i * 7919) % n).padStart(7, "0")}`;
    if (i % 33 === 32) row.splice(0, row.length, ...(chunk[chunk.length - 1] ?? row)); // duplicate of the previous row
    if (i % 101 === 100) row[NC_HEADERS.indexOf("last_name")] = "";
    chunk.push(row);
    if (chunk.length === 5000) {
      if (!out.write(toCsv([], chunk).replace(/^\n/, ""))) await new Promise<void>((r) => out.once("drain", () => r()));
      chunk = [];
    }
  }
  if (chunk.length) out.write(toCsv([], chunk).replace(/^\n/, ""));
  await new Promise<void>((r) => out.end(r));
}

/** Imports `file` as the import screen does (columns paired automatically, errors ignored, standard matching). */
export async function importVoterFile(
  client: ConvexClient,
  file: string,
  o: {
    batchSize?: number;
    wrap?: (t: ImportTransport) => ImportTransport;
    onProgress?: (p: ImportProgress) => void;
  } = {},
): Promise<RunImportResult> {
  const blob = await fs.openAsBlob(file);
  const named = Object.assign(blob, { name: path.basename(file) });
  const source = await openImportFile(named);
  const sample = await source.next(50);
  const mapping = autoMatch(source.headers, sample);
  const transport = convexImportTransport(client);
  return await runImport({
    source: await openImportFile(named),
    transport: o.wrap ? o.wrap(transport) : transport,
    filename: named.name,
    mapping,
    sampleRows: sample,
    errorMode: "ignore",
    matchRule: "standard",
    attestation: { state: "NC", use: "campaign", useOther: null, attested: true },
    batchSize: o.batchSize,
    onProgress: o.onProgress,
  });
}
