/**
 * Ordered collections in a Yjs document, for co-edited drafts (forms, surveys): a `Y.Map` of items
 * by id, each item its own `Y.Map` of plain properties plus `order`, a number. Concurrent changes
 * to different properties of one item both survive; a move is one change of `order` (a value
 * between the new neighbours), so concurrent moves of different items both apply. Items can be
 * grouped by a property (a survey field's `pageId`): order then counts within the group.
 *
 * The properties named in `texts` (labels, placeholders, descriptions) are `Y.Text`
 * (lib/yText.ts), so two people typing in one label both keep their keystrokes; a stored plain
 * string still reads (`readText`) and becomes a `Y.Text` on its first edit. An empty text reads as
 * null for properties that are optional (`null` written to one empties it).
 */
import * as Y from "yjs";
import { newText, setText, textOf, upgradeTexts } from "./yText";

export type Props = Record<string, unknown>;
/** The properties of an item held as Y.Text. */
export type TextKeys = ReadonlySet<string>;
const NONE: TextKeys = new Set();

export function itemMap(props: Props, texts: TextKeys = NONE): Y.Map<unknown> {
  const m = new Y.Map<unknown>();
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    if (texts.has(k) && (typeof v === "string" || v === null)) m.set(k, newText(v ?? ""));
    else m.set(k, v);
  }
  return m;
}

/** A text property as a string (a Y.Text or a legacy string), `fallback` when there is none. */
export function readText(m: Y.Map<unknown>, key: string, fallback = ""): string {
  return textOf(m.get(key)) ?? fallback;
}

/** An optional text property: null when absent or empty. */
export function readOptionalText(m: Y.Map<unknown>, key: string): string | null {
  const t = textOf(m.get(key));
  return t ? t : null;
}

/** Sets a map's text entry (as a Y.Text: only the difference is written; a legacy string is upgraded outside the undo history). */
export function writeText(doc: Y.Doc, m: Y.Map<unknown>, key: string, value: string) {
  upgradeTexts(doc, m, [key]);
  setText(m, key, value);
}

function orderOf(m: Y.Map<unknown>): number {
  const o = m.get("order");
  return typeof o === "number" ? o : 0;
}

/** The items' ids in order (ties by id, so every client reads the same order), optionally only those `where` accepts. */
export function orderedIds(items: Y.Map<Y.Map<unknown>>, where?: (m: Y.Map<unknown>) => boolean): string[] {
  const out: Array<{ id: string; order: number }> = [];
  items.forEach((m, id) => {
    if (!where || where(m)) out.push({ id, order: orderOf(m) });
  });
  return out.sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((x) => x.id);
}

/** Adds an item after the last of its group. */
export function appendItem(
  items: Y.Map<Y.Map<unknown>>,
  id: string,
  props: Props,
  where?: (m: Y.Map<unknown>) => boolean,
  texts: TextKeys = NONE,
) {
  const ids = orderedIds(items, where);
  const last = ids.length ? orderOf(items.get(ids[ids.length - 1])!) : 0;
  items.set(id, itemMap({ ...props, order: last + 1 }, texts));
}

/**
 * Sets the given properties (undefined ones skipped, unchanged ones not written); a text property
 * (`texts`) gets only the difference. False when the item is gone.
 */
export function updateItem(
  doc: Y.Doc,
  items: Y.Map<Y.Map<unknown>>,
  id: string,
  patch: Props,
  texts: TextKeys = NONE,
): boolean {
  const m = items.get(id);
  if (!m) return false;
  const textKeys = Object.keys(patch).filter(
    (k) => texts.has(k) && (typeof patch[k] === "string" || patch[k] === null),
  );
  upgradeTexts(doc, m, textKeys);
  doc.transact(() => {
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) continue;
      if (textKeys.includes(k)) setText(m, k, (v as string | null) ?? "");
      else if (JSON.stringify(m.get(k)) !== JSON.stringify(v)) m.set(k, v);
    }
  });
  return true;
}

/** Moves an item to position `to` among the others of its group. */
export function moveItem(items: Y.Map<Y.Map<unknown>>, id: string, to: number, where?: (m: Y.Map<unknown>) => boolean) {
  const m = items.get(id);
  if (!m) return;
  const others = orderedIds(items, where).filter((x) => x !== id);
  const at = Math.max(0, Math.min(to, others.length));
  const before = at > 0 ? orderOf(items.get(others[at - 1])!) : null;
  const after = at < others.length ? orderOf(items.get(others[at])!) : null;
  m.set(
    "order",
    before === null && after === null
      ? 1
      : before === null
        ? after! - 1
        : after === null
          ? before + 1
          : (before + after) / 2,
  );
}
