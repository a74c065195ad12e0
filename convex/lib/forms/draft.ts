/**
 * A form's draft as a Yjs document (room "form:<id>"), shared by the server (which seeds it when
 * the form is created) and the builder (which edits it). Two staffers editing one form merge per
 * property: the name and description are entries of one map; each field is its own map of
 * properties (label, required, placeholder, options, type) plus `order`, a number, so a reorder
 * is one property change and concurrent moves of different fields both apply. The name,
 * description, labels and placeholders are Y.Text (lib/yText.ts): two people typing in one label
 * both keep their keystrokes; drafts stored with plain strings still read.
 */
import * as Y from "yjs";
import type { FormField, FormFieldType } from "./rules";
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

const META = "formMeta";
const FIELDS = "formFields";

export type FormDraft = { name: string; description: string; fields: FormField[] };
type FieldProps = Omit<FormField, "id"> & { order: number };
/** Field properties held as Y.Text. */
const FIELD_TEXTS: ReadonlySet<string> = new Set(["label", "placeholder"]);

export function draftMeta(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap<unknown>(META);
}

export function draftFields(doc: Y.Doc): Y.Map<Y.Map<unknown>> {
  return doc.getMap<Y.Map<unknown>>(FIELDS);
}

/** Fills an empty draft with a form's published content. */
export function writeDraft(doc: Y.Doc, draft: FormDraft) {
  doc.transact(() => {
    const meta = draftMeta(doc);
    meta.set("name", newText(draft.name));
    meta.set("description", newText(draft.description));
    draft.fields.forEach((f, i) => {
      const { id, ...rest } = f;
      draftFields(doc).set(id, itemMap({ ...rest, order: i + 1 } satisfies FieldProps, FIELD_TEXTS));
    });
  });
}

function str(v: unknown, fallback = ""): string {
  return typeof v === "string" ? v : fallback;
}

/** The draft as plain values, fields in order (ties by id, so every client reads the same order). */
export function readDraft(doc: Y.Doc): FormDraft {
  const meta = draftMeta(doc);
  const fields = draftFields(doc);
  return {
    name: readText(meta, "name"),
    description: readText(meta, "description"),
    fields: orderedIds(fields).map((id) => {
      const m = fields.get(id)!;
      const options = m.get("options");
      return {
        id,
        type: str(m.get("type"), "text") as FormFieldType,
        label: readText(m, "label"),
        required: m.get("required") === true,
        placeholder: readOptionalText(m, "placeholder"),
        options: Array.isArray(options) ? options.filter((o): o is string => typeof o === "string") : [],
      };
    }),
  };
}

/** Whether publishing the draft would change nothing (compared as the server stores it: trimmed, blank options dropped). */
export function draftMatches(
  draft: FormDraft,
  form: { name: string; description: string | null; fields: FormField[] },
): boolean {
  if (draft.name.trim() !== form.name || draft.description.trim() !== (form.description ?? "")) return false;
  if (draft.fields.length !== form.fields.length) return false;
  return draft.fields.every((d, i) => {
    const p = form.fields[i];
    const options = d.options.map((o) => o.trim()).filter(Boolean);
    return (
      d.id === p.id &&
      d.type === p.type &&
      d.label.trim() === p.label &&
      (d.type === "separator" ? false : d.required) === p.required &&
      (d.placeholder?.trim() || null) === p.placeholder &&
      options.length === p.options.length &&
      options.every((o, j) => o === p.options[j])
    );
  });
}

export function isEmptyDraft(doc: Y.Doc): boolean {
  return draftMeta(doc).size === 0 && draftFields(doc).size === 0;
}

export function setDraftMeta(doc: Y.Doc, key: "name" | "description", value: string) {
  writeText(doc, draftMeta(doc), key, value);
}

/** Adds a field at the end. */
export function addDraftField(doc: Y.Doc, field: FormField) {
  const { id, ...rest } = field;
  appendItem(draftFields(doc), id, rest, undefined, FIELD_TEXTS);
}

/** Sets the given properties of a field (a label or placeholder: only the typed difference); unchanged ones are not written. False when it is gone. */
export function updateDraftField(doc: Y.Doc, id: string, patch: Partial<Omit<FormField, "id">>): boolean {
  return updateItem(doc, draftFields(doc), id, patch, FIELD_TEXTS);
}

export function removeDraftField(doc: Y.Doc, id: string) {
  if (draftFields(doc).has(id)) draftFields(doc).delete(id);
}

/** Moves a field to position `to` of the current order. */
export function moveDraftField(doc: Y.Doc, id: string, to: number) {
  moveItem(draftFields(doc), id, to);
}
