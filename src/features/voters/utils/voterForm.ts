/** Pure logic of the voter add/edit form: section order, value conversion, custom field defs. */
import type { CustomFieldType, VoterFields, VoterFieldDef, VoterFormSection } from "@convex/tables/voters";
import { VOTER_FIELD_DEFS } from "@convex/tables/voters";

export type FormValues = Record<string, string>;
/** A field of the form: a built-in voter field or one of the organisation's custom fields. */
export type FormFieldDef = Omit<VoterFieldDef, "key"> & { key: string };
export type CustomDef = { key: string; label: string; type: string; required: boolean; options?: string[] };

export const SECTION_LABELS: Record<VoterFormSection, string> = {
  personal: "Personal Information",
  address: "Address",
  state_voter: "State Voter Data",
  state_verified: "State Verified Data",
  political: "Political Information",
  notes: "Notes",
  custom: "Custom Fields",
};

/** The modal's field types (spec/1 §2) and their stored type ids. */
export const CUSTOM_FIELD_TYPES: { value: Exclude<CustomFieldType, "number">; label: string }[] = [
  { value: "text", label: "Text" },
  { value: "textarea", label: "Long Text" },
  { value: "email", label: "Email" },
  { value: "phone", label: "Phone" },
  { value: "date", label: "Date" },
  { value: "dropdown", label: "Dropdown" },
];

/** Built-in fields plus the organisation's custom fields, as form field definitions. */
export function formFieldDefs(custom: CustomDef[]): FormFieldDef[] {
  return [
    ...VOTER_FIELD_DEFS,
    ...custom.map((c) => ({
      key: c.key,
      label: c.label,
      type: (c.type === "number" ? "text" : c.type) as VoterFieldDef["type"],
      section: "custom" as const,
      required: c.required,
      options: c.options,
    })),
  ];
}

/** A stored voter as form strings. */
export function valuesFromVoter(voter: Partial<VoterFields> | null | undefined): FormValues {
  const out: FormValues = {};
  if (!voter) return out;
  for (const f of VOTER_FIELD_DEFS) {
    const v = (voter as Record<string, unknown>)[f.key];
    if (v === undefined || v === null) continue;
    if (typeof v === "boolean") out[f.key] = v ? "Yes" : "No";
    else if (typeof v === "string" || typeof v === "number") out[f.key] = String(v);
  }
  for (const [k, v] of Object.entries(voter.custom_fields ?? {})) out[k] = v;
  return out;
}

/** Form strings → the mutation's fields (empty → absent; Yes/No → boolean; history → number). */
export function fieldsFromValues(
  values: FormValues,
  custom: CustomDef[],
  keepCustom: Record<string, string> = {},
): VoterFields {
  const out: Record<string, unknown> = {
    first_name: (values.first_name ?? "").trim(),
    last_name: (values.last_name ?? "").trim(),
  };
  for (const f of VOTER_FIELD_DEFS) {
    if (f.key === "first_name" || f.key === "last_name") continue;
    const raw = (values[f.key] ?? "").trim();
    if (raw === "") continue;
    if (f.key === "from_state_database") out[f.key] = raw === "Yes";
    else if (f.key === "state_voter_history") out[f.key] = Number(raw);
    else out[f.key] = raw;
  }
  // values of custom fields without a definition (e.g. from an import) are kept as they are
  const cf: Record<string, string> = { ...keepCustom };
  for (const c of custom) {
    const raw = (values[c.key] ?? "").trim();
    if (raw === "") delete cf[c.key];
    else cf[c.key] = raw;
  }
  if (Object.keys(cf).length > 0) out.custom_fields = cf;
  return out as VoterFields;
}

/** Labels of required fields left empty (blocks saving: "Please fill in: …"). */
export function missingRequired(values: FormValues, defs: FormFieldDef[]): string[] {
  return defs.filter((d) => d.required && !(values[d.key] ?? "").trim()).map((d) => d.label);
}

/** A form field's path in a voter save: built-in fields by key, custom ones under custom_fields. */
export function voterEditPath(key: string): string {
  return (VOTER_FIELD_DEFS as { key: string }[]).some((d) => d.key === key) ? key : `custom_fields.${key}`;
}

/** The form key of a save path ("custom_fields.k" → "k"). */
export function voterFormKey(path: string): string {
  return path.startsWith("custom_fields.") ? path.slice("custom_fields.".length) : path;
}

/** A form string as the stored value a save compares (empty → null; Yes/No; history as a number). */
export function storedVoterValue(key: string, value: string): string | number | boolean | null {
  const raw = value.trim();
  if (raw === "") return null;
  if (key === "from_state_database") return raw === "Yes";
  if (key === "state_voter_history") return Number(raw);
  return raw;
}

/** A stored value as the form shows it. */
export function voterFormValue(value: string | number | boolean | null | string[]): string {
  if (value === null) return "";
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return String(value);
}
