import { useConvex, useQuery } from "convex/react";
import { useCallback, useState } from "react";
import { api } from "@convex/_generated/api";
import { downloadBlob } from "@/lib/download";
import {
  CsvExportWriter,
  exportColumns,
  exportFileName,
  XlsxExportWriter,
  type ExportVoter,
} from "../utils/exportWriter";
import { voterFilterArgs, type VoterListFilter } from "./useVoterList";

/** Rows asked for per call (voters.exportPage serves at most 1,000). */
const EXPORT_PAGE = 1000;

/**
 * Exports the current filter/search: voters.startExport records the run, then pages of 1,000 fetched one after another (one-shot queries,
 * not subscriptions) and handed to a writer, so only one page is ever held as objects; the rows
 * written are reported with exports.finish (the audit entry) before the file is offered.
 */
export function useVoterExport(filter: VoterListFilter) {
  const convex = useConvex();
  const { search, party, status, statusCode, district } = filter;
  const [exported, setExported] = useState<number | null>(null);

  const run = useCallback(
    async (format: "csv" | "xlsx") => {
      setExported(0);
      try {
        const defs = await convex.query(api.customFields.list, {});
        const columns = exportColumns(defs);
        const writer = format === "csv" ? new CsvExportWriter(columns) : new XlsxExportWriter(columns);
        const args = voterFilterArgs({ search, party, status, statusCode, district });
        // the server serves the pages only against a run it recorded (the audit log's entry)
        const exportId = await convex.mutation(api.voters.startExport, { ...args, format });
        let cursor: string | null = null;
        let count = 0;
        for (;;) {
          const page: { page: ExportVoter[]; isDone: boolean; continueCursor: string } = await convex.query(
            api.voters.exportPage,
            {
              ...args,
              exportId,
              paginationOpts: { numItems: EXPORT_PAGE, cursor },
            },
          );
          writer.addPage(page.page);
          count += page.page.length;
          setExported(count);
          if (page.isDone) break;
          cursor = page.continueCursor;
        }
        const file = writer.finish();
        await convex.mutation(api.exports.finish, { exportId, rows: count });
        downloadBlob(file, exportFileName(format));
        return count;
      } finally {
        setExported(null);
      }
    },
    [convex, search, party, status, statusCode, district],
  );
  return { run, exporting: exported !== null, exported: exported ?? 0 };
}

/** The states whose voter-file use restrictions the export shows first (USPS codes; empty while loading). */
export function useVoterExportStates(): string[] {
  return useQuery(api.voters.exportStates, {}) ?? [];
}
