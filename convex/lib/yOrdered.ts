/**
 * Ordered collections in a Yjs document, for co-edited drafts (forms, surveys): a `Y.Map` of items
 * by id, each item its own `Y.Map` of plain properties plus `order`, a number. Concurrent changes
 * to different properties of one item both survive; a move is one change of `order` (a value
 * between the new neighbours), so concurrent moves of different items both apply. Items can be
 * grouped by a property (a survey field's `pageId`): order then counts within the group.
 */
import * as Y from "yjs";

export type Props = Record<string, unknown>;

export function itemMap(props: Props): Y.Map<unknown> {
  const m = new Y.Map<unknown>();
  for (const [k, v] of Object.entries(props)) if (v !== undefined) m.set(k, v);
  return m;
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
export function appendItem(items: Y.Map<Y.Map<unknown>>, id: string, props: Props, where?: (m: Y.Map<unknown>) => boolean) {
  const ids = orderedIds(items, where);
  const last = ids.length ? orderOf(items.get(ids[ids.length - 1])!) : 0;
  items.set(id, itemMap({ ...props, order: last + 1 }));
}

/** Sets the given properties (undefined ones skipped, unchanged ones not written). False when the item is gone. */
export function updateItem(doc: Y.Doc, items: Y.Map<Y.Map<unknown>>, id: string, patch: Props): boolean {
  const m = items.get(id);
  if (!m) return false;
  doc.transact(() => {
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) continue;
      if (JSON.stringify(m.get(k)) !== JSON.stringify(v)) m.set(k, v);
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
  m.set("order", before === null && after === null ? 1 : before === null ? after! - 1 : after === null ? before + 1 : (before + after) / 2);
}
