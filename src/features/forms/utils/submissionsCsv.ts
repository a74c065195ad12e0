/**
 * The Form Submissions export (spec/2 §9): every cell quoted, formulas neutralised (lib/csv.ts),
 * one column per form field.
 */
import { displayValue, type FormField, type SubmissionValue } from "@convex/lib/forms/rules";
import { csvName, toCsv } from "@/lib/csv";

export type ExportSubmission = {
  formId: string;
  formName: string;
  data: Record<string, SubmissionValue>;
  submitterEmail: string | null;
  submitterIp: string | null;
  createdAt: number;
};
export type ExportForm = { id: string; name: string; fields: FormField[] };

export function csvFileName(formName: string | null): string {
  return csvName(formName, "all_form_submissions.csv");
}

export function submissionsCsv(rows: ExportSubmission[], forms: ExportForm[]): string {
  const columns: Array<{ id: string; label: string; field: FormField }> = [];
  const labels = new Map<string, number>();
  for (const form of forms) {
    for (const f of form.fields) {
      if (f.type === "separator" || columns.some((c) => c.id === f.id)) continue;
      columns.push({ id: f.id, label: f.label, field: f });
      labels.set(f.label, (labels.get(f.label) ?? 0) + 1);
    }
  }
  const formOf = new Map(forms.map((form) => [form.id, form.name]));
  const header = [
    "Submitted At",
    "Form",
    "Submitter Email",
    "Submitter IP",
    ...columns.map((c) =>
      (labels.get(c.label) ?? 0) > 1
        ? `${c.label} (${forms.find((f) => f.fields.some((x) => x.id === c.id))?.name ?? ""})`
        : c.label,
    ),
  ];
  const body = rows.map((r) => [
    new Date(r.createdAt).toISOString(),
    formOf.get(r.formId) ?? r.formName,
    r.submitterEmail ?? "",
    r.submitterIp ?? "",
    ...columns.map((c) => displayValue(c.field, r.data[c.id])),
  ]);
  return toCsv(header, body);
}
