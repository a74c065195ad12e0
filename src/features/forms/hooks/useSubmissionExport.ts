import { useConvex } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { downloadCsv } from "@/lib/csv";
import { toast } from "@/ui/toast";
import type { FormRow } from "./useForms";
import { csvFileName, submissionsCsv, type ExportSubmission } from "../utils/submissionsCsv";

export type SubmissionFilters = { formId: Id<"forms"> | null; from: number | null; to: number | null; email: string };

/** Export CSV: reads every matching submission page by page (newest first), then downloads one file. */
export function useSubmissionExport(forms: FormRow[]) {
  const convex = useConvex();
  const [exporting, setExporting] = useState(false);
  const run = async (filters: SubmissionFilters) => {
    setExporting(true);
    try {
      // the server serves the pages only against a run it recorded; finish writes the audit entry
      const exportId = await convex.mutation(api.formSubmissions.startExport, filters);
      const rows: ExportSubmission[] = [];
      let before: number | null = null;
      do {
        const page: { rows: ExportSubmission[]; nextBefore: number | null } = await convex.query(
          api.formSubmissions.exportPage,
          { ...filters, exportId, before },
        );
        rows.push(...page.rows);
        before = page.nextBefore;
      } while (before !== null);
      await convex.mutation(api.exports.finish, { exportId, rows: rows.length });
      const form = filters.formId ? forms.find((f) => f.id === filters.formId) : null;
      const used = form ? [form] : forms;
      downloadCsv(
        submissionsCsv(
          rows,
          used.map((f) => ({ id: f.id, name: f.name, fields: f.fields })),
        ),
        csvFileName(form?.name ?? null),
      );
      toast.success("Export complete", { description: `${rows.length.toLocaleString("en-US")} submissions exported.` });
    } catch (e) {
      toast.failure("Error loading submissions", e);
    } finally {
      setExporting(false);
    }
  };
  return { exporting, run };
}
