/**
 * Form rules shared by the server and the browser (spec/2 §3 form field, §5 Forms, §9): field
 * types, the bounds of a form definition, and the validation of a submission. The public form
 * page shows these messages before sending; the server applies the same function to what arrives,
 * so a hand-made request gets no further than the page would.
 */
import { TEXTS } from "../texts";

export const FORM_FIELD_TYPES = [
  "text",
  "email",
  "tel",
  "textarea",
  "select",
  "radio",
  "checkbox",
  "date",
  "number",
  "separator",
] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

export const FIELD_TYPE_LABELS: Record<FormFieldType, string> = {
  text: "Text",
  email: "Email",
  tel: "Phone",
  textarea: "Text Area",
  select: "Select Dropdown",
  radio: "Radio Buttons",
  checkbox: "Checkbox",
  date: "Date",
  number: "Number",
  separator: "Separator",
};

export type FormField = {
  id: string;
  type: FormFieldType;
  label: string;
  required: boolean;
  placeholder: string | null;
  /** select and radio only */
  options: string[];
};

/** A submission's value per field id: text for most types, true/false for a checkbox, a number for number. */
export type SubmissionValue = string | number | boolean;
export type SubmissionData = Record<string, SubmissionValue>;

export const FORM_VERSION = "2.1.0";
export const MAX_FORM_FIELDS = 100;
export const MAX_FIELD_OPTIONS = 50;
export const MAX_LABEL = 200;
export const MAX_OPTION = 200;
export const MAX_FORM_NAME = 200;
export const MAX_FORM_DESCRIPTION = 2_000;
/** The most characters a value may hold, per field type. */
export const VALUE_LIMITS: Record<Exclude<FormFieldType, "separator" | "checkbox" | "number">, number> = {
  text: 500,
  email: 254,
  tel: 40,
  textarea: 5_000,
  select: MAX_OPTION,
  radio: MAX_OPTION,
  date: 10,
};
/** A submission's whole body, as JSON, at most this many bytes (also the http endpoint's cap). */
export const MAX_SUBMISSION_BYTES = 64 * 1024;

export const FORM_NAME_REQUIRED = TEXTS.titles.formNameRequired;
export const INVALID_EMAIL = "Please enter a valid email address";
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A new field id as the spec shapes it: field_ or separator_, a timestamp, a random part. */
export function newFieldId(type: FormFieldType, now = Date.now()): string {
  return `${type === "separator" ? "separator" : "field"}_${now}_${Math.random().toString(36).slice(2, 9)}`;
}

export const FIELD_ID_PATTERN = /^(field|separator)_[A-Za-z0-9_]{1,60}$/;

export function takesOptions(type: FormFieldType): boolean {
  return type === "select" || type === "radio";
}

/** What is wrong with a form definition (null: nothing). Names the first problem in the builder's words. */
export function formDefinitionProblem(name: string, description: string | null, fields: FormField[]): string | null {
  if (!name.trim()) return FORM_NAME_REQUIRED;
  if (name.trim().length > MAX_FORM_NAME) return `A form name is limited to ${MAX_FORM_NAME} characters.`;
  if ((description ?? "").length > MAX_FORM_DESCRIPTION)
    return `A description is limited to ${MAX_FORM_DESCRIPTION.toLocaleString("en-US")} characters.`;
  if (fields.length > MAX_FORM_FIELDS) return `A form can have at most ${MAX_FORM_FIELDS} fields.`;
  const ids = new Set<string>();
  for (const f of fields) {
    if (!FIELD_ID_PATTERN.test(f.id) || ids.has(f.id)) return "A field of this form has an invalid id.";
    ids.add(f.id);
    if (!(FORM_FIELD_TYPES as readonly string[]).includes(f.type)) return "A field of this form has an unknown type.";
    if (f.type !== "separator" && !f.label.trim()) return "Every field needs a label.";
    if (f.label.length > MAX_LABEL || (f.placeholder ?? "").length > MAX_LABEL)
      return `A label or placeholder is limited to ${MAX_LABEL} characters.`;
    if (takesOptions(f.type)) {
      const options = f.options.map((o) => o.trim()).filter(Boolean);
      if (options.length === 0) return `"${f.label}" needs at least one option.`;
      if (options.length > MAX_FIELD_OPTIONS) return `"${f.label}" can have at most ${MAX_FIELD_OPTIONS} options.`;
      if (options.some((o) => o.length > MAX_OPTION)) return `An option is limited to ${MAX_OPTION} characters.`;
    } else if (f.options.length > 0) return `"${f.label}" does not take options.`;
  }
  return null;
}

/** The options a field offers: trimmed, blanks dropped. */
export function fieldOptions(f: FormField): string[] {
  return f.options.map((o) => o.trim()).filter(Boolean);
}

export type SubmissionCheck = { values: SubmissionData; errors: Record<string, string>; submitterEmail: string | null };

/**
 * Validates what a respondent entered against the form: only the form's own field ids, each value
 * of its type and within its length, required fields present ('{label} is required'), email fields
 * well-formed ('Please enter a valid email address'), choices among the field's options. Blank
 * optional values are dropped. The submitter email is the first email-type field's value.
 */
export function checkSubmission(fields: FormField[], data: Record<string, unknown>): SubmissionCheck {
  const values: SubmissionData = {};
  const errors: Record<string, string> = {};
  const byId = new Map(fields.map((f) => [f.id, f]));
  for (const key of Object.keys(data)) {
    const f = byId.get(key);
    if (!f || f.type === "separator") errors[key] = "This field is not part of the form.";
  }
  let submitterEmail: string | null = null;
  for (const f of fields) {
    if (f.type === "separator") continue;
    const raw = data[f.id];
    const required = `${f.label} is required`;
    if (f.type === "checkbox") {
      if (raw !== undefined && typeof raw !== "boolean") errors[f.id] = "Please tick or untick this box.";
      else if (f.required && raw !== true) errors[f.id] = required;
      else if (raw === true) values[f.id] = true;
      continue;
    }
    if (f.type === "number") {
      if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
        if (f.required) errors[f.id] = required;
        continue;
      }
      const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.length <= 40 ? Number(raw.trim()) : NaN;
      if (!Number.isFinite(n)) errors[f.id] = "Please enter a number";
      else values[f.id] = n;
      continue;
    }
    if (raw !== undefined && raw !== null && typeof raw !== "string") {
      errors[f.id] = "Please enter text in this field.";
      continue;
    }
    const text = (raw ?? "").trim();
    if (!text) {
      if (f.required) errors[f.id] = required;
      continue;
    }
    const limit = VALUE_LIMITS[f.type];
    if (text.length > limit) errors[f.id] = `${f.label} is limited to ${limit.toLocaleString("en-US")} characters.`;
    else if (f.type === "email" && !EMAIL_PATTERN.test(text)) errors[f.id] = INVALID_EMAIL;
    else if (takesOptions(f.type) && !fieldOptions(f).includes(text))
      errors[f.id] = "Please choose one of the options.";
    else if (f.type === "date" && !isIsoDate(text)) errors[f.id] = "Please enter a valid date";
    else {
      values[f.id] = text;
      if (f.type === "email" && submitterEmail === null) submitterEmail = text.toLowerCase();
    }
  }
  return { values, errors, submitterEmail };
}

function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

/** A value as a person reads it (CSV cells, the details modal). */
export function displayValue(field: FormField | undefined, value: SubmissionValue | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (field?.type === "date" && typeof value === "string") return value;
  return String(value);
}
