import Papa from "papaparse";
import { describe, expect, test } from "vitest";
import { csvFileName, submissionsCsv } from "@/features/forms/utils/submissionsCsv";
import type { FormField } from "@convex/lib/forms/rules";

const f = (id: string, type: FormField["type"], label: string): FormField => ({
  id,
  type,
  label,
  required: false,
  placeholder: null,
  options: [],
});

describe("form submissions CSV", () => {
  const forms = [
    {
      id: "F1",
      name: "Signup",
      fields: [
        f("field_name", "text", "Name"),
        f("separator_1", "separator", ""),
        f("field_ok", "checkbox", "Agree"),
        f("field_n", "number", "Count"),
      ],
    },
  ];
  const csv = submissionsCsv(
    [
      {
        formId: "F1",
        formName: "Signup",
        data: { field_name: '=HYPERLINK("http://evil")\nline2', field_ok: true, field_n: -3 },
        submitterEmail: "a@b.org",
        submitterIp: "1.2.3.4",
        createdAt: Date.UTC(2026, 10, 23),
      },
      {
        formId: "F1",
        formName: "Signup",
        data: { field_name: 'Quote "me", please' },
        submitterEmail: null,
        submitterIp: null,
        createdAt: Date.UTC(2026, 10, 22),
      },
    ],
    forms,
  );
  test("every cell is quoted, formulas are neutralised (a negative number stays a number), values read back exactly", () => {
    for (const line of csv.split("\r\n").filter((l) => l && !l.startsWith("line2")))
      expect(line.startsWith('"')).toBe(true);
    const parsed = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;
    expect(parsed[0]).toEqual(["Submitted At", "Form", "Submitter Email", "Submitter IP", "Name", "Agree", "Count"]);
    expect(parsed[1]).toEqual([
      "2026-11-23T00:00:00.000Z",
      "Signup",
      "a@b.org",
      "1.2.3.4",
      '\'=HYPERLINK("http://evil")\nline2',
      "Yes",
      "-3",
    ]);
    expect(parsed[2]).toEqual(["2026-11-22T00:00:00.000Z", "Signup", "", "", 'Quote "me", please', "", ""]);
  });
  test("file names", () => {
    expect(csvFileName(null)).toBe("all_form_submissions.csv");
    expect(csvFileName("Volunteer sign-up / 2026")).toBe("Volunteer_sign-up_2026.csv");
  });
});
