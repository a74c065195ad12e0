import { useConvex, useMutation, usePaginatedQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { LineStatus } from "../utils/petitionDisplay";

export type ExportedLine = FunctionReturnType<typeof api.petitions.exportPage>["page"][number];

/** Results: a petition's lines with their verdicts (paged, live, filtered by status), claiming one, and every line for the export. */
export function usePetitionResults(petitionId: Id<"petitions">, status: LineStatus | null, pageSize: number) {
  const {
    results,
    status: pageStatus,
    loadMore,
  } = usePaginatedQuery(api.petitions.lines, { petitionId, status }, { initialNumItems: pageSize });
  const claim = useMutation(api.petitions.claim);
  const convex = useConvex();
  /** Every line of the petition, a thousand a request, for an export the server records (startExport, exports.finish). */
  const allLines = async (): Promise<ExportedLine[]> => {
    const exportId = await convex.mutation(api.petitions.startExport, { petitionId });
    const out: ExportedLine[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page: FunctionReturnType<typeof api.petitions.exportPage> = await convex.query(api.petitions.exportPage, {
        exportId,
        petitionId,
        paginationOpts: { numItems: 1000, cursor },
      });
      out.push(...page.page);
      if (page.isDone) break;
      cursor = page.continueCursor;
    }
    await convex.mutation(api.exports.finish, { exportId, rows: out.length });
    return out;
  };
  return { results, pageStatus, loadMore, claim, allLines };
}
