/**
 * A survey's draft as a Yjs document (room "survey:<id>"), seeded by the server when the survey is
 * created and edited by the survey maker; Save (or auto-save) publishes it. Pages and questions are
 * ordered collections (lib/yOrdered.ts); a question's page is its `pageId` property, so moving a
 * question, editing another property of it, or reordering pages are each one change that merges.
 * The name, description, page titles and the questions' labels, descriptions and placeholders are
 * Y.Text (lib/yText.ts): two people typing in one label both keep their keystrokes; drafts stored
 * with plain strings still read.
 */
import * as Y from "yjs";
import type {
  Condition,
  RatingType,
  SurveyDefinition,
  SurveyField,
  SurveyFieldType,
  SurveyPage,
  SurveySettings,
} from "./rules";
import {
  appendItem,
  itemMap,
  moveItem,
  orderedIds,
  readOptionalText,
  readText,
  updateItem,
  writeText,
} from "../yOrdered";
import { newText } from "../yText";

export type SurveyDraft = {
  name: string;
  description: string;
  recipient: string;
  pages: SurveyPage[];
  settings: SurveySettings;
};

const meta = (doc: Y.Doc) => doc.getMap<unknown>("surveyMeta");
const pages = (doc: Y.Doc) => doc.getMap<Y.Map<unknown>>("surveyPages");
const fields = (doc: Y.Doc) => doc.getMap<Y.Map<unknown>>("surveyFields");

const onPage = (pageId: string) => (m: Y.Map<unknown>) => m.get("pageId") === pageId;
/** Properties held as Y.Text. */
const META_TEXTS: ReadonlySet<string> = new Set(["name", "description"]);
const PAGE_TEXTS: ReadonlySet<string> = new Set(["title"]);
const FIELD_TEXTS: ReadonlySet<string> = new Set(["label", "description", "placeholder"]);

export function writeSurveyDraft(doc: Y.Doc, d: SurveyDefinition & { recipient: string | null }) {
  doc.transact(() => {
    meta(doc).set("name", newText(d.name));
    meta(doc).set("description", newText(d.description ?? ""));
    meta(doc).set("recipient", d.recipient ?? "");
    meta(doc).set("allowMultipleSubmissions", d.settings.allowMultipleSubmissions);
    meta(doc).set("showProgressBar", d.settings.showProgressBar);
    d.pages.forEach((p, i) => {
      pages(doc).set(p.id, itemMap({ title: p.title, condition: p.condition, order: i + 1 }, PAGE_TEXTS));
      p.fields.forEach((f, j) => {
        const { id, ...rest } = f;
        fields(doc).set(id, itemMap({ ...rest, pageId: p.id, order: j + 1 }, FIELD_TEXTS));
      });
    });
  });
}

const str = (v: unknown, d = "") => (typeof v === "string" ? v : d);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

function condition(v: unknown): Condition | null {
  if (!v || typeof v !== "object") return null;
  const c = v as Record<string, unknown>;
  return typeof c.fieldId === "string" && typeof c.op === "string" && typeof c.value === "string"
    ? ({ fieldId: c.fieldId, op: c.op, value: c.value } as Condition)
    : null;
}

function readField(id: string, m: Y.Map<unknown>): SurveyField {
  const options = m.get("options");
  return {
    id,
    type: str(m.get("type"), "text") as SurveyFieldType,
    label: readText(m, "label"),
    placeholder: readOptionalText(m, "placeholder"),
    description: readOptionalText(m, "description"),
    required: m.get("required") === true,
    options: Array.isArray(options) ? options.filter((o): o is string => typeof o === "string") : [],
    maxRating: num(m.get("maxRating")),
    ratingType: (typeof m.get("ratingType") === "string" ? m.get("ratingType") : null) as RatingType | null,
    min: num(m.get("min")),
    max: num(m.get("max")),
    step: num(m.get("step")),
    condition: condition(m.get("condition")),
  };
}

export function readSurveyDraft(doc: Y.Doc): SurveyDraft {
  const m = meta(doc);
  return {
    name: readText(m, "name"),
    description: readText(m, "description"),
    recipient: str(m.get("recipient")),
    settings: {
      allowMultipleSubmissions: m.get("allowMultipleSubmissions") === true,
      showProgressBar: m.get("showProgressBar") !== false,
    },
    pages: orderedIds(pages(doc)).map((pid) => {
      const p = pages(doc).get(pid)!;
      return {
        id: pid,
        title: readText(p, "title"),
        condition: condition(p.get("condition")),
        fields: orderedIds(fields(doc), onPage(pid)).map((fid) => readField(fid, fields(doc).get(fid)!)),
      };
    }),
  };
}

/** The published form of a survey (trimmed, blank options dropped, keys in one order), to compare drafts with what is saved. */
export function canonicalSurvey(x: {
  name: string;
  description: string | null;
  recipient: string | null;
  pages: SurveyPage[];
  settings: SurveySettings;
}): string {
  return JSON.stringify({
    name: x.name.trim(),
    description: (x.description ?? "").trim(),
    recipient: (x.recipient ?? "").trim(),
    settings: { m: x.settings.allowMultipleSubmissions, p: x.settings.showProgressBar },
    pages: x.pages.map((p) => ({
      id: p.id,
      title: p.title.trim(),
      c: p.condition && { f: p.condition.fieldId, o: p.condition.op, v: p.condition.value },
      fields: p.fields.map((f) => [
        f.id,
        f.type,
        f.label.trim(),
        f.placeholder,
        f.description,
        f.required,
        f.options.map((o) => o.trim()).filter(Boolean),
        f.maxRating,
        f.ratingType,
        f.min,
        f.max,
        f.step,
        f.condition && [f.condition.fieldId, f.condition.op, f.condition.value],
      ]),
    })),
  });
}

export function isEmptySurveyDraft(doc: Y.Doc): boolean {
  return meta(doc).size === 0 && pages(doc).size === 0;
}

export function setSurveyMeta(
  doc: Y.Doc,
  key: "name" | "description" | "recipient" | "allowMultipleSubmissions" | "showProgressBar",
  value: string | boolean,
) {
  if (META_TEXTS.has(key) && typeof value === "string") writeText(doc, meta(doc), key, value);
  else if (meta(doc).get(key) !== value) meta(doc).set(key, value);
}

export function addSurveyPage(doc: Y.Doc, id: string, title: string) {
  appendItem(pages(doc), id, { title, condition: null }, undefined, PAGE_TEXTS);
}

export function updateSurveyPage(doc: Y.Doc, id: string, patch: { title?: string; condition?: Condition | null }) {
  return updateItem(doc, pages(doc), id, patch, PAGE_TEXTS);
}

/** Removes a page and its questions (the caller keeps at least one page). */
export function removeSurveyPage(doc: Y.Doc, id: string) {
  doc.transact(() => {
    for (const fid of orderedIds(fields(doc), onPage(id))) fields(doc).delete(fid);
    pages(doc).delete(id);
  });
}

export function addSurveyField(doc: Y.Doc, pageId: string, field: SurveyField) {
  const { id, ...rest } = field;
  appendItem(fields(doc), id, { ...rest, pageId }, onPage(pageId), FIELD_TEXTS);
}

export function updateSurveyField(doc: Y.Doc, id: string, patch: Partial<Omit<SurveyField, "id">>) {
  return updateItem(doc, fields(doc), id, patch, FIELD_TEXTS);
}

export function removeSurveyField(doc: Y.Doc, id: string) {
  if (fields(doc).has(id)) fields(doc).delete(id);
}

/** Moves a question up (-1) or down (+1) within its page; blocked at the ends (false). */
export function stepSurveyField(doc: Y.Doc, id: string, delta: -1 | 1): boolean {
  const m = fields(doc).get(id);
  if (!m) return false;
  const pageId = str(m.get("pageId"));
  const ids = orderedIds(fields(doc), onPage(pageId));
  const at = ids.indexOf(id);
  const to = at + delta;
  if (to < 0 || to >= ids.length) return false;
  moveItem(fields(doc), id, to, onPage(pageId));
  return true;
}
