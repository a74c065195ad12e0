/**
 * Survey rules shared by the server and the browser (spec/3 §3.4, §5, §9.4): field types and
 * their properties, the bounds of a survey definition, skip logic, and checking a respondent's
 * answers. The respondent flow (preview, hosted page, embed) and the public endpoint apply the
 * same functions, so skip logic and validation never disagree.
 */
import { INVALID_EMAIL } from "../forms/rules";
import { TEXTS } from "../texts";

export const SURVEY_FIELD_TYPES = [
  "text",
  "textarea",
  "email",
  "phone",
  "number",
  "date",
  "select",
  "radio",
  "checkbox",
  "rating",
  "slider",
  "url",
] as const;
export type SurveyFieldType = (typeof SURVEY_FIELD_TYPES)[number];

export const SURVEY_TYPE_LABELS: Record<SurveyFieldType, string> = {
  text: "Text",
  textarea: "Text Area",
  email: "Email",
  phone: "Phone",
  number: "Number",
  date: "Date",
  select: "Dropdown",
  radio: "Radio",
  checkbox: "Checkbox",
  rating: "Rating",
  slider: "Slider",
  url: "URL",
};

export const RATING_TYPES = ["stars", "numbers", "thumbs"] as const;
export type RatingType = (typeof RATING_TYPES)[number];
export const CONDITION_OPS = ["equals", "contains", "gt"] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];
export const CONDITION_LABELS: Record<ConditionOp, string> = {
  equals: "equals",
  contains: "contains",
  gt: "is greater than",
};

/** Shown only when an earlier field's answer matches. */
export type Condition = { fieldId: string; op: ConditionOp; value: string };

export type SurveyField = {
  id: string;
  type: SurveyFieldType;
  label: string;
  placeholder: string | null;
  description: string | null;
  required: boolean;
  /** select, radio, checkbox */
  options: string[];
  /** rating: 2–10 */
  maxRating: number | null;
  ratingType: RatingType | null;
  /** slider (min, max, step ≥ 1) and number (min, max, optional) */
  min: number | null;
  max: number | null;
  step: number | null;
  condition: Condition | null;
};

export type SurveyPage = { id: string; title: string; condition: Condition | null; fields: SurveyField[] };

/** Per survey (spec/3 §3.4); the organisation's settings (notifications, recipient, auto-save, anonymous) are apart. */
export type SurveySettings = { allowMultipleSubmissions: boolean; showProgressBar: boolean };

export type SurveyDefinition = {
  name: string;
  description: string | null;
  pages: SurveyPage[];
  settings: SurveySettings;
};
export type Answer = string | number | boolean | string[];
export type Responses = Record<string, Answer>;

export const DEFAULT_SURVEY_SETTINGS: SurveySettings = { allowMultipleSubmissions: false, showProgressBar: true };
/** The organisation's survey settings and their defaults (spec/3 §3.4). */
export type OrgSurveySettings = {
  emailNotifications: boolean;
  defaultRecipient: string | null;
  autoSave: boolean;
  allowAnonymous: boolean;
};
export const DEFAULT_ORG_SURVEY_SETTINGS: OrgSurveySettings = {
  emailNotifications: true,
  defaultRecipient: null,
  autoSave: true,
  allowAnonymous: false,
};
export const RESPONDENT_EMAIL_REQUIRED = TEXTS.required.email;
export const DEFAULT_OPTIONS = ["Option 1", "Option 2", "Option 3"];
export const MAX_PAGES = 20;
export const MAX_SURVEY_FIELDS = 100;
export const MAX_TEXT_ANSWER = 5_000;
/** The longest answer to a one-line question (text, email, phone, url…). */
export const MAX_SHORT_ANSWER = 500;
export const MAX_SURVEY_BODY_BYTES = 64 * 1024;
export const FIELD_REQUIRED = "This field is required";
export const FILL_REQUIRED = "Please fill in all required fields";
export const LAST_PAGE_WARNING = "Cannot delete page: Survey must have at least one page.";
export const SURVEY_SUCCESS = "Survey submitted successfully! Thank you for your responses.";
export const SURVEY_FAILURE = "There was an error submitting your survey. Please try again.";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function newSurveyFieldId(now = Date.now()): string {
  return `field_${now}_${Math.random().toString(36).slice(2, 7)}`;
}
export function newPageId(now = Date.now()): string {
  return `page_${now}_${Math.random().toString(36).slice(2, 7)}`;
}
export const SURVEY_ID_PATTERN = /^(field|page)_[A-Za-z0-9_]{1,60}$/;

export function hasOptions(type: SurveyFieldType): boolean {
  return type === "select" || type === "radio" || type === "checkbox";
}

/** A new field of `type` with the spec's defaults ('New {type name}', three options, 5 stars, 0–100 step 1). */
export function newSurveyField(type: SurveyFieldType, id = newSurveyFieldId()): SurveyField {
  return {
    id,
    type,
    label: `New ${SURVEY_TYPE_LABELS[type]}`,
    placeholder: null,
    description: null,
    required: false,
    options: hasOptions(type) ? [...DEFAULT_OPTIONS] : [],
    maxRating: type === "rating" ? 5 : null,
    ratingType: type === "rating" ? "stars" : null,
    min: type === "slider" ? 0 : null,
    max: type === "slider" ? 100 : null,
    step: type === "slider" ? 1 : null,
    condition: null,
  };
}

/** What is wrong with a survey definition (null: nothing), in the builder's words. */
export function surveyDefinitionProblem(def: { name: string; pages: SurveyPage[] }): string | null {
  if (!def.name.trim()) return "Survey name required";
  if (def.name.trim().length > 200) return "A survey name is limited to 200 characters.";
  if (def.pages.length === 0) return LAST_PAGE_WARNING;
  if (def.pages.length > MAX_PAGES) return `A survey can have at most ${MAX_PAGES} pages.`;
  const all = def.pages.flatMap((p) => p.fields);
  if (all.length > MAX_SURVEY_FIELDS) return `A survey can have at most ${MAX_SURVEY_FIELDS} questions.`;
  const seen = new Set<string>();
  const earlier = new Map<string, SurveyField>();
  for (const page of def.pages) {
    if (!SURVEY_ID_PATTERN.test(page.id) || seen.has(page.id)) return "A page of this survey has an invalid id.";
    seen.add(page.id);
    if (page.title.length > 200) return "A page title is limited to 200 characters.";
    const pageProblem = conditionProblem(page.condition, earlier);
    if (pageProblem) return `${page.title || "A page"}: ${pageProblem}`;
    for (const f of page.fields) {
      if (!SURVEY_ID_PATTERN.test(f.id) || seen.has(f.id)) return "A question of this survey has an invalid id.";
      seen.add(f.id);
      if (!(SURVEY_FIELD_TYPES as readonly string[]).includes(f.type)) return "A question has an unknown type.";
      if (!f.label.trim()) return "Every question needs a label.";
      if (f.label.length > 500 || (f.placeholder ?? "").length > 200 || (f.description ?? "").length > 1000)
        return `"${f.label}" has a label, placeholder or description that is too long.`;
      if (hasOptions(f.type)) {
        const options = f.options.map((o) => o.trim()).filter(Boolean);
        if (options.length === 0) return `"${f.label}" needs at least one option.`;
        if (options.length > 50 || options.some((o) => o.length > 200))
          return `"${f.label}" has too many or too long options.`;
      }
      if (
        f.type === "rating" &&
        (f.maxRating === null || !Number.isInteger(f.maxRating) || f.maxRating < 2 || f.maxRating > 10)
      )
        return `"${f.label}": the rating maximum must be 2 to 10.`;
      if (f.type === "slider") {
        if (f.min === null || f.max === null || !(f.min < f.max))
          return `"${f.label}": the slider minimum must be below its maximum.`;
        if (f.step === null || !(f.step >= 1)) return `"${f.label}": the slider step must be at least 1.`;
      }
      if (f.type === "number" && f.min !== null && f.max !== null && f.min > f.max)
        return `"${f.label}": the minimum must not be above the maximum.`;
      const problem = conditionProblem(f.condition, earlier);
      if (problem) return `"${f.label}": ${problem}`;
    }
    for (const f of page.fields) earlier.set(f.id, f);
  }
  return null;
}

function conditionProblem(c: Condition | null, earlier: Map<string, SurveyField>): string | null {
  if (!c) return null;
  if (!earlier.has(c.fieldId)) return "a condition must refer to a question on an earlier page.";
  if (!(CONDITION_OPS as readonly string[]).includes(c.op) || c.value.length > 200)
    return "this condition is not valid.";
  if (c.op === "gt" && !Number.isFinite(Number(c.value))) return "'is greater than' needs a number.";
  return null;
}

/** Whether an answer matches a condition (equals / contains / greater than; a list matches when one item does). */
export function conditionHolds(c: Condition, responses: Responses): boolean {
  const answer = responses[c.fieldId];
  if (answer === undefined) return false;
  const items = Array.isArray(answer) ? answer.map(String) : [String(answer)];
  const want = c.value.trim().toLowerCase();
  switch (c.op) {
    case "equals":
      return items.some((a) => a.trim().toLowerCase() === want);
    case "contains":
      return items.some((a) => a.toLowerCase().includes(want));
    case "gt":
      return items.some((a) => Number(a) > Number(c.value));
  }
}

/** The pages shown for these answers, each with its shown fields (pages with nothing left to show are skipped). */
export function visiblePages(pages: SurveyPage[], responses: Responses): SurveyPage[] {
  const out: SurveyPage[] = [];
  for (const page of pages) {
    if (page.condition && !conditionHolds(page.condition, responses)) continue;
    const fields = page.fields.filter((f) => !f.condition || conditionHolds(f.condition, responses));
    if (fields.length > 0) out.push({ ...page, fields });
  }
  return out;
}

function isBlank(a: Answer | undefined): boolean {
  return a === undefined || (typeof a === "string" && a.trim() === "") || (Array.isArray(a) && a.length === 0);
}

/** Checks one field's answer: an error message, or null. */
export function answerProblem(f: SurveyField, a: Answer | undefined): string | null {
  if (isBlank(a)) return f.required ? FIELD_REQUIRED : null;
  const opts = f.options.map((o) => o.trim()).filter(Boolean);
  switch (f.type) {
    case "checkbox":
      return Array.isArray(a) &&
        a.length <= opts.length &&
        a.every((x) => opts.includes(x)) &&
        new Set(a).size === a.length
        ? null
        : "Please choose among the options.";
    case "select":
    case "radio":
      return typeof a === "string" && opts.includes(a) ? null : "Please choose one of the options.";
    case "rating": {
      if (typeof a !== "number" || !Number.isInteger(a)) return "Please choose a rating.";
      if (f.ratingType === "thumbs") return a === 1 || a === -1 ? null : "Please choose a rating.";
      return a >= 1 && a <= (f.maxRating ?? 5) ? null : "Please choose a rating.";
    }
    case "slider": {
      const min = f.min ?? 0;
      const step = f.step ?? 1;
      if (typeof a !== "number" || a < min || a > (f.max ?? 100)) return "Please choose a value on the slider.";
      return Math.abs((a - min) / step - Math.round((a - min) / step)) < 1e-9
        ? null
        : "Please choose a value on the slider.";
    }
    case "number": {
      const n = typeof a === "number" ? a : typeof a === "string" ? Number(a.trim()) : NaN;
      if (!Number.isFinite(n)) return "Please enter a number";
      if (f.min !== null && n < f.min) return `Please enter a number of at least ${f.min}`;
      if (f.max !== null && n > f.max) return `Please enter a number of at most ${f.max}`;
      return null;
    }
    default: {
      if (typeof a !== "string") return "Please enter text in this field.";
      if (a.length > (f.type === "textarea" ? MAX_TEXT_ANSWER : MAX_SHORT_ANSWER)) return "This answer is too long.";
      if (f.type === "email" && !EMAIL_PATTERN.test(a.trim())) return INVALID_EMAIL;
      if (f.type === "url" && !/^https?:\/\/[^\s]+\.[^\s]+$/i.test(a.trim())) return "Please enter a valid web address";
      if (f.type === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(a.trim())) return "Please enter a valid date";
      return null;
    }
  }
}

/**
 * The survey's own email question: the first required Email question the respondent's answers
 * show. When there is one, the survey asks for the respondent's email itself: no extra "Your
 * email" box, and its answer is the respondent's email (one response per email, automations).
 */
export function ownEmailQuestion(pages: SurveyPage[], responses: Responses): SurveyField | null {
  for (const page of visiblePages(pages, responses)) {
    for (const f of page.fields) if (f.type === "email" && f.required) return f;
  }
  return null;
}

/** The respondent's email as answered to the survey's own email question, if any. */
export function emailFromAnswers(pages: SurveyPage[], responses: Responses): string | null {
  const q = ownEmailQuestion(pages, responses);
  const a = q ? responses[q.id] : undefined;
  return typeof a === "string" && a.trim() ? a.trim() : null;
}

/** Errors of one page's shown fields (the respondent flow's Next). */
export function pageErrors(page: SurveyPage, responses: Responses): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of page.fields) {
    const problem = answerProblem(f, responses[f.id]);
    if (problem) errors[f.id] = problem;
  }
  return errors;
}

/**
 * The whole submission: only shown fields may be answered (answers to questions skip logic hid,
 * or to unknown ids, are errors), each answer of its type and range, required ones present.
 * Returns the answers to keep (numbers as numbers) and the errors by field id.
 */
export function checkResponses(
  pages: SurveyPage[],
  responses: Record<string, unknown>,
): { values: Responses; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const values: Responses = {};
  const all = new Map(pages.flatMap((p) => p.fields).map((f) => [f.id, f]));
  for (const [k, v] of Object.entries(responses)) {
    if (!all.has(k)) errors[k] = "This question is not part of the survey.";
    else if (!(
      typeof v === "string" ||
      typeof v === "number" ||
      typeof v === "boolean" ||
      (Array.isArray(v) && v.every((x) => typeof x === "string"))
    ))
      errors[k] = "This answer has the wrong type.";
  }
  if (Object.keys(errors).length > 0) return { values, errors };
  const answers = responses as Responses;
  const shown = visiblePages(pages, answers);
  const shownIds = new Set(shown.flatMap((p) => p.fields.map((f) => f.id)));
  for (const k of Object.keys(answers))
    if (!shownIds.has(k) && !isBlank(answers[k])) errors[k] = "This question was not shown for your answers.";
  for (const page of shown) {
    Object.assign(errors, pageErrors(page, answers));
    for (const f of page.fields) {
      const a = answers[f.id];
      if (isBlank(a) || errors[f.id]) continue;
      values[f.id] =
        f.type === "number" ? Number(typeof a === "string" ? a.trim() : a) : typeof a === "string" ? a.trim() : a;
    }
  }
  return { values, errors };
}

/** An answer as a person reads it (details, CSV). */
export function answerText(f: SurveyField | undefined, a: Answer | undefined): string {
  if (a === undefined) return "";
  if (Array.isArray(a)) return a.join(", ");
  if (f?.type === "rating" && f.ratingType === "thumbs") return a === 1 ? "👍" : a === -1 ? "👎" : String(a);
  if (f?.type === "rating") return `${String(a)} / ${f.maxRating ?? 5}`;
  if (typeof a === "boolean") return a ? "Yes" : "No";
  return String(a);
}
