/** The largest per-transaction reads and writes a benchmark caused, against Convex's limits. */
import type { TransactionStats } from "../local-backend/src/engine-api";

const MEASURES: [keyof TransactionStats["max"], string][] = [
  ["documentsRead", "documents read"],
  ["bytesRead", "bytes read"],
  ["databaseQueries", "index ranges"],
  ["documentsWritten", "documents written"],
  ["bytesWritten", "bytes written"],
  ["functionsScheduled", "functions scheduled"],
  ["executionMs", "execution ms"],
];

export function formatTransactionStats(stats: TransactionStats): string {
  const limits = stats.limits as unknown as Record<string, number | undefined>;
  const lines = [
    `largest per-transaction use over ${stats.transactions.toLocaleString()} queries/mutations (Convex limit):`,
  ];
  for (const [key, label] of MEASURES) {
    const m = stats.max[key];
    if (!m) continue;
    const limit = limits[key];
    lines.push(
      `  ${label.padEnd(20)} ${Math.round(m.value).toLocaleString().padStart(12)}${limit ? ` / ${limit.toLocaleString()}` : ""}  ${m.functionPath ?? ""}`,
    );
  }
  return lines.join("\n");
}
