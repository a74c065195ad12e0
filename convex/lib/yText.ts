/**
 * Text in co-edited Yjs documents (CTA and email designs, form and survey drafts): what people
 * type is a `Y.Text` inside the item's `Y.Map`, so two people typing in one text merge by
 * character and both keep their keystrokes; every other property stays a plain value merged per
 * property.
 *
 * Documents stored before texts became `Y.Text` hold plain strings: readers accept both
 * (`textOf`, `plainValue`), and the first edit of such a string turns it into a `Y.Text` in a
 * transaction of its own (origin `TEXT_UPGRADE`, which no undo manager tracks, so an undo never
 * turns a text back into a string over a teammate's typing).
 *
 *   setText(map, "label", "Email address");   // the difference from what is there, as inserts and deletes
 *   textOf(map.get("label"));                  // "Email address" (a Y.Text or a legacy string)
 */
import * as Y from "yjs";

/** The origin of the transaction turning a legacy string into a Y.Text (not undoable). */
export const TEXT_UPGRADE = "precinct:text-upgrade";

/** A stored text as a string: a Y.Text's content, a legacy plain string, else undefined. */
export function textOf(v: unknown): string | undefined {
  if (v instanceof Y.Text) return v.toJSON();
  return typeof v === "string" ? v : undefined;
}

/** A stored value as plain data (a Y.Text as its string; anything else as it is). */
export function plainValue(v: unknown): unknown {
  return v instanceof Y.AbstractType ? (v.toJSON() as unknown) : v;
}

/** A new Y.Text holding `s` (to put in a map). */
export function newText(s: string): Y.Text {
  return new Y.Text(s);
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * The one change turning `a` into `b`: delete `remove` characters at `at`, then insert `insert`
 * there (common start and end kept; never splitting a surrogate pair).
 */
export function textDiff(a: string, b: string): { at: number; remove: number; insert: string } {
  let start = 0;
  const max = Math.min(a.length, b.length);
  while (start < max && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  // the common start ends inside a surrogate pair: keep the whole pair in the change
  if (start > 0 && isHigh(a.charCodeAt(start - 1))) start--;
  let end = 0;
  while (end < max - start && a.charCodeAt(a.length - 1 - end) === b.charCodeAt(b.length - 1 - end)) end++;
  if (end > 0 && isLow(a.charCodeAt(a.length - end))) end--;
  return { at: start, remove: a.length - start - end, insert: b.slice(start, b.length - end) };
}

/** Where a position in `a` is after `a` became `b` (a caret kept beside the text it was next to). */
export function mapPosition(a: string, b: string, pos: number): number {
  const d = textDiff(a, b);
  if (pos <= d.at) return pos;
  if (pos >= d.at + d.remove) return pos - d.remove + d.insert.length;
  return d.at + d.insert.length;
}

/** Makes `text` read `value` by inserting and deleting only what differs (so teammates' concurrent typing elsewhere stays). */
export function applyText(text: Y.Text, value: string) {
  const d = textDiff(text.toJSON(), value);
  if (d.remove === 0 && d.insert === "") return;
  const run = () => {
    if (d.remove > 0) text.delete(d.at, d.remove);
    if (d.insert) text.insert(d.at, d.insert);
  };
  if (text.doc) text.doc.transact(run);
  else run();
}

/**
 * Makes each of `keys` of `map` a Y.Text: a legacy plain string becomes one with the same content,
 * a missing or null entry an empty one. In a transaction of its own (origin TEXT_UPGRADE, not
 * undoable), so call it before the transaction that edits those keys.
 */
export function upgradeTexts(doc: Y.Doc, map: Y.Map<unknown>, keys: Iterable<string>) {
  const legacy = [...keys].filter((k) => !(map.get(k) instanceof Y.Text));
  if (legacy.length === 0) return;
  doc.transact(() => {
    for (const k of legacy) map.set(k, newText(textOf(map.get(k)) ?? ""));
  }, TEXT_UPGRADE);
}

/**
 * Sets the text under `key` to `value`: the difference applied to the Y.Text there, or a new
 * Y.Text when there is none (a legacy string is replaced; call `upgradeTexts` first to keep that
 * out of the undo history). Unchanged values are not written.
 */
export function setText(map: Y.Map<unknown>, key: string, value: string) {
  const cur = map.get(key);
  if (cur instanceof Y.Text) applyText(cur, value);
  else if (cur !== value || !map.has(key)) map.set(key, newText(value));
}
