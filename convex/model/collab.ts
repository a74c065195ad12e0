/**
 * No lost updates on shared records (DESIGN.md §5). An edit names, per field, the value the
 * editor started from (`base`) and the new value. Saving applies a field when nobody changed it
 * since (the stored value still equals the base), merges with teammates' changes to other fields,
 * and refuses the whole save naming the teammate when the same field now holds something else.
 * Deleting a record leaves a mark so an editor hears who deleted it.
 *
 * Field paths are a top-level field ("phone") or one key of a record field ("custom_fields.k").
 * Values are JSON scalars; null means "no value".
 */
import type { Infer } from "convex/values";
import type { Doc } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, type ConflictDetail } from "../lib/errors";
import type { vFieldEdit, vFieldMark } from "../tables/collab";
import { displayName } from "./presence";
import type { Viewer } from "./viewer";

export type FieldEdit = Infer<typeof vFieldEdit>;
export type EditValue = FieldEdit["value"];
type FieldMark = Infer<typeof vFieldMark>;

/** At most this many fields in one save (a form has a few dozen). */
export const MAX_EDITS = 200;

/** The stored value at a path, null when absent. */
export function readField(doc: Record<string, unknown>, field: string): EditValue {
  const dot = field.indexOf(".");
  const value =
    dot < 0 ? doc[field] : (doc[field.slice(0, dot)] as Record<string, unknown> | undefined)?.[field.slice(dot + 1)];
  return value === undefined ? null : (value as EditValue);
}

/** A copy of `doc` with the edits' values written (null removes the field or key). */
export function withEdits<T extends Record<string, unknown>>(doc: T, edits: FieldEdit[]): T {
  const out: Record<string, unknown> = { ...doc };
  for (const { field, value } of edits) {
    const dot = field.indexOf(".");
    if (dot < 0) {
      if (value === null) delete out[field];
      else out[field] = value;
      continue;
    }
    const outer = field.slice(0, dot);
    const inner: Record<string, unknown> = { ...((out[outer] as Record<string, unknown> | undefined) ?? {}) };
    if (value === null) delete inner[field.slice(dot + 1)];
    else inner[field.slice(dot + 1)] = value;
    out[outer] = inner;
  }
  return out as T;
}

/** Equal values; lists compare element by element (an empty list is no value). */
export function sameValue(a: EditValue, b: EditValue): boolean {
  const norm = (x: EditValue) => (Array.isArray(x) && x.length === 0 ? null : x);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

export type MergeRules = {
  /** how the record is named in messages ("Maria Lopez", "the group Volunteers") */
  title: string;
  /** a field's name in messages ("phone") */
  label: (field: string) => string;
  /** fields the editor may change; anything else is refused */
  editable: (field: string) => boolean;
};

export async function loadMarks(db: QueryCtx["db"], recordId: string): Promise<Doc<"editMarks"> | null> {
  return await db
    .query("editMarks")
    .withIndex("by_record", (q) => q.eq("recordId", recordId))
    .unique();
}

function names(marks: (FieldMark | undefined)[], viewer: Viewer): string {
  const out: string[] = [];
  for (const m of marks) {
    const n = !m ? "a teammate" : m.userId === viewer.userId ? "you in another window" : m.name;
    if (!out.includes(n)) out.push(n);
  }
  return out.length <= 1 ? (out[0] ?? "a teammate") : `${out.slice(0, -1).join(", ")} and ${out[out.length - 1]}`;
}

/**
 * The edits to apply to `current`: those whose field still holds its base. Throws the conflict
 * (CONFLICT, naming who changed which fields) when any field changed to another value since.
 * Edits whose value is already stored are dropped.
 */
export async function mergeEdits(
  ctx: Pick<QueryCtx, "db">,
  viewer: Viewer,
  recordId: string,
  current: Record<string, unknown>,
  edits: FieldEdit[],
  rules: MergeRules,
): Promise<FieldEdit[]> {
  if (edits.length > MAX_EDITS) throw appError("VALIDATION_ERROR", `A save changes at most ${MAX_EDITS} fields.`);
  const seen = new Set<string>();
  const apply: FieldEdit[] = [];
  const conflicts: { edit: FieldEdit; theirs: EditValue }[] = [];
  for (const edit of edits) {
    if (seen.has(edit.field) || !rules.editable(edit.field))
      throw appError("VALIDATION_ERROR", `"${edit.field}" cannot be edited here.`);
    seen.add(edit.field);
    const stored = readField(current, edit.field);
    if (sameValue(stored, edit.value)) continue;
    if (sameValue(stored, edit.base)) apply.push(edit);
    else conflicts.push({ edit, theirs: stored });
  }
  if (conflicts.length === 0) return apply;
  const marks = await loadMarks(ctx.db, recordId);
  const byField = conflicts.map((c) => marks?.fields[c.edit.field]);
  const message = `${rules.title} was changed by ${names(byField, viewer)} while you were editing: ${conflicts.map((c) => rules.label(c.edit.field)).join(", ")}`;
  const detail: ConflictDetail[] = conflicts.map((c, i) => ({
    field: c.edit.field,
    theirs: c.theirs,
    by: byField[i]?.name ?? null,
  }));
  throw appError("CONFLICT", message, "Edit conflict", { conflicts: detail });
}

function markOf(viewer: Viewer): FieldMark {
  return { userId: viewer.userId, name: displayName(viewer.user), at: Date.now() };
}

/** Records the viewer as the last editor of the fields they saved. */
export async function markEdited(ctx: Pick<MutationCtx, "db">, viewer: Viewer, recordId: string, fields: string[]) {
  if (fields.length === 0) return;
  const mark = markOf(viewer);
  const existing = await loadMarks(ctx.db, recordId);
  const updated = { ...(existing?.fields ?? {}) };
  for (const f of fields) updated[f] = mark;
  if (existing) await ctx.db.patch("editMarks", existing._id, { fields: updated });
  else await ctx.db.insert("editMarks", { orgId: viewer.orgId, recordId, fields: updated });
}

/** Records who deleted the record (read by editors who still have it open). */
export async function markDeleted(ctx: Pick<MutationCtx, "db">, viewer: Viewer, recordId: string) {
  const existing = await loadMarks(ctx.db, recordId);
  if (existing) await ctx.db.patch("editMarks", existing._id, { deleted: markOf(viewer) });
  else await ctx.db.insert("editMarks", { orgId: viewer.orgId, recordId, fields: {}, deleted: markOf(viewer) });
}

/** "This voter was deleted by Bob" (or NOT_FOUND when nobody is known to have deleted it). */
export async function missingRecord(ctx: Pick<QueryCtx, "db">, viewer: Viewer, recordId: string, noun: string) {
  const marks = await loadMarks(ctx.db, recordId);
  if (!marks?.deleted) return appError("NOT_FOUND");
  return appError("NOT_FOUND", `This ${noun} was deleted by ${names([marks.deleted], viewer)}.`, "Deleted");
}

/** What an open form shows: who last saved each field, and who deleted the record. */
export async function loadEditState(ctx: Pick<QueryCtx, "db">, recordId: string) {
  const marks = await loadMarks(ctx.db, recordId);
  return {
    fields: Object.fromEntries(
      Object.entries(marks?.fields ?? {}).map(([f, m]) => [f, { userId: m.userId, name: m.name, at: m.at }]),
    ),
    deleted: marks?.deleted ?? null,
  };
}
