/**
 * An email campaign's design as a Yjs document (room "emailCampaign:<id>"), shared by the server
 * (which seeds it when a campaign is created, duplicated or restored) and the builder (which edits
 * it). Two staffers editing one campaign merge per property:
 *
 * - `emailMeta`: name, subject, fromName, fromEmail, replyTo, previewText (one entry each);
 * - `emailBlocks`: every block flat by id, each its own map of properties plus `type`, `parent`
 *   (the containing block's id, "" for the canvas), `slot` (the column) and `order` (a number).
 *   A move is one change of parent/slot/order; an edit of a property touches only that property;
 *   so concurrent moves, edits and additions of different things all survive.
 *
 * Reading rebuilds the tree (blocks.ts `EmailBlock`): a block whose container was deleted by a
 * teammate meanwhile comes back on the canvas rather than being lost.
 *
 * Text properties (those BLOCK_PROPS declares `text`, and the name, subject, sender name and
 * preview text) are `Y.Text` (lib/yText.ts): two people typing in one text both keep their
 * keystrokes. Drafts stored with plain strings still read; their first edit turns a string into a
 * `Y.Text`.
 *
 * A deleted block (and everything inside it) stays in `emailBlocks` with a `deleted` property (who
 * deleted it): readers skip it and undo clears the property, so the block comes back with its
 * latest content, a teammate's typing after the delete included.
 */
import * as Y from "yjs";
import {
  BLOCK_PROPS,
  BLOCK_TYPES,
  canDrop,
  childrenOf,
  columnCount,
  hasColumns,
  isWrapper,
  type BlockContent,
  type BlockType,
  type BlockValue,
  type DropParent,
  type EmailBlock,
} from "./blocks";
import { orderedIds } from "../yOrdered";
import { newText, plainValue, setText, textOf, upgradeTexts } from "../yText";

const META = "emailMeta";
const BLOCKS = "emailBlocks";
/** The property marking a deleted block (its value: who deleted it, "" when unknown). */
const DELETED = "deleted";
const STRUCTURE = new Set(["type", "parent", "slot", "order", DELETED]);
/** Meta entries held as Y.Text (addresses stay plain values). */
const TEXT_META = new Set<string>(["name", "subject", "fromName", "previewText"]);

/** Whether a block property is typed text (a Y.Text in the document). */
function isTextProp(type: unknown, key: string): boolean {
  return BLOCK_TYPES.includes(type as BlockType) && BLOCK_PROPS[type as BlockType][key]?.kind === "text";
}

export const META_KEYS = ["name", "subject", "fromName", "fromEmail", "replyTo", "previewText"] as const;
export type MetaKey = (typeof META_KEYS)[number];
export type EmailMeta = Record<MetaKey, string>;
export type EmailDraft = { meta: EmailMeta; blocks: EmailBlock[] };

/** Where a block goes: a container (null: the canvas), its column, and the position among its siblings. */
export type BlockTarget = { parentId: string | null; slot: number; index: number };

export function emailMeta(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap<unknown>(META);
}

export function emailBlocks(doc: Y.Doc): Y.Map<Y.Map<unknown>> {
  return doc.getMap<Y.Map<unknown>>(BLOCKS);
}

export function emptyMeta(): EmailMeta {
  return { name: "", subject: "", fromName: "", fromEmail: "", replyTo: "", previewText: "" };
}

export function isEmptyEmailDraft(doc: Y.Doc): boolean {
  return emailMeta(doc).size === 0 && emailBlocks(doc).size === 0;
}

function flatten(
  list: EmailBlock[],
  parent: string,
  slot: number,
  out: Array<{ block: EmailBlock; parent: string; slot: number; order: number }>,
) {
  list.forEach((block, i) => {
    out.push({ block, parent, slot, order: i + 1 });
    if (isWrapper(block.type)) flatten(childrenOf(block), block.id, 0, out);
    if (hasColumns(block.type))
      for (let s = 0; s < columnCount(block); s++) flatten(childrenOf(block, s), block.id, s, out);
  });
}

function blockMap(block: EmailBlock, parent: string, slot: number, order: number): Y.Map<unknown> {
  const m = new Y.Map<unknown>();
  m.set("type", block.type);
  m.set("parent", parent);
  m.set("slot", slot);
  m.set("order", order);
  for (const [k, v] of Object.entries(block.content)) {
    if (k !== "children" && k !== "columnChildren" && !STRUCTURE.has(k))
      m.set(k, typeof v === "string" && isTextProp(block.type, k) ? newText(v) : v);
  }
  return m;
}

/** Replaces the whole draft (a new campaign, a loaded template, a restored version). */
/** Replaces the whole draft (a new campaign, a loaded template, a restored version); blocks not in it are marked deleted by `by`, so undo brings them back whole. */
export function writeEmailDraft(doc: Y.Doc, draft: { meta?: Partial<EmailMeta>; blocks?: EmailBlock[] }, by = "") {
  if (draft.meta)
    upgradeTexts(
      doc,
      emailMeta(doc),
      Object.keys(draft.meta).filter((k) => TEXT_META.has(k)),
    );
  doc.transact(() => {
    if (draft.meta)
      for (const [k, v] of Object.entries(draft.meta)) if (v !== undefined) setEmailMeta(doc, k as MetaKey, v);
    if (draft.blocks) {
      const blocks = emailBlocks(doc);
      const flat: Parameters<typeof flatten>[3] = [];
      flatten(draft.blocks, "", 0, flat);
      const kept = new Set(flat.map((f) => f.block.id));
      blocks.forEach((m, id) => {
        if (!kept.has(id) && !m.has(DELETED)) m.set(DELETED, by);
      });
      for (const f of flat) blocks.set(f.block.id, blockMap(f.block, f.parent, f.slot, f.order));
    }
  });
}

export function setEmailMeta(doc: Y.Doc, key: MetaKey, value: string) {
  const meta = emailMeta(doc);
  if (TEXT_META.has(key)) {
    upgradeTexts(doc, meta, [key]);
    setText(meta, key, value);
  } else if (meta.get(key) !== value) meta.set(key, value);
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** The draft as plain values: the block tree in order (ties by id, so every client reads the same). */
export function readEmailDraft(doc: Y.Doc): EmailDraft {
  const metaMap = emailMeta(doc);
  const meta = emptyMeta();
  for (const k of META_KEYS) meta[k] = textOf(metaMap.get(k)) ?? "";
  return { meta, blocks: readBlocks(doc) };
}

export function readBlocks(doc: Y.Doc): EmailBlock[] {
  const blocks = emailBlocks(doc);
  const byParent = new Map<string, string[]>();
  const placed = (id: string): { parent: string; type: BlockType } | null => {
    const m = blocks.get(id)!;
    const type = m.get("type") as BlockType;
    if (!BLOCK_TYPES.includes(type) || m.has(DELETED)) return null;
    let parent = str(m.get("parent"));
    const p = parent ? live(doc, parent) : undefined;
    // a container deleted (or turned into something else) by a teammate: the block comes back on the canvas
    if (parent && (!p || !canDrop(type, { type: p.get("type") as BlockType, slot: 0 }))) parent = "";
    return { parent, type };
  };
  for (const id of orderedIds(blocks)) {
    const at = placed(id);
    if (!at) continue;
    const list = byParent.get(at.parent) ?? [];
    list.push(id);
    byParent.set(at.parent, list);
  }
  const build = (id: string, depth: number): EmailBlock => {
    const m = blocks.get(id)!;
    const type = m.get("type") as BlockType;
    const content: BlockContent = {};
    m.forEach((v, k) => {
      if (!STRUCTURE.has(k)) content[k] = plainValue(v) as BlockValue;
    });
    const kids = depth < 3 ? (byParent.get(id) ?? []) : [];
    if (isWrapper(type)) content.children = kids.map((c) => build(c, depth + 1));
    if (hasColumns(type)) {
      const n = columnCount({ type, content });
      const cols: EmailBlock[][] = Array.from({ length: n }, () => []);
      for (const c of kids) {
        const slot = Number(blocks.get(c)!.get("slot")) || 0;
        cols[Math.max(0, Math.min(n - 1, slot))].push(build(c, depth + 1));
      }
      content.columnChildren = cols;
    }
    return { id, type, content };
  };
  return (byParent.get("") ?? []).map((id) => build(id, 1));
}

/** A block's map unless it is gone or deleted. */
function live(doc: Y.Doc, id: string): Y.Map<unknown> | undefined {
  const m = emailBlocks(doc).get(id);
  return m && !m.has(DELETED) ? m : undefined;
}

/** The ids of the blocks inside `id` (all levels, deleted ones included). */
function descendants(doc: Y.Doc, id: string): string[] {
  const blocks = emailBlocks(doc);
  const out: string[] = [];
  const visit = (pid: string) =>
    blocks.forEach((m, cid) => {
      if (m.get("parent") === pid) {
        out.push(cid);
        visit(cid);
      }
    });
  visit(id);
  return out;
}

function parentOf(doc: Y.Doc, target: BlockTarget): DropParent | undefined {
  if (target.parentId === null) return null;
  const p = live(doc, target.parentId);
  if (!p) return undefined;
  return { type: p.get("type") as BlockType, slot: target.slot };
}

/** The order value placing a block at `index` among the siblings in (parent, slot), other than `self`. */
function orderAt(doc: Y.Doc, target: BlockTarget, self?: string): number {
  const blocks = emailBlocks(doc);
  const parent = target.parentId ?? "";
  // the siblings as readBlocks shows them: in a column of a columns/sidebar block those whose slot
  // falls into it (slots beyond a lowered count show in the last column); in a wrapper all of them
  const p = parent ? blocks.get(parent) : undefined;
  const n =
    p && hasColumns(p.get("type") as BlockType)
      ? columnCount({ type: p.get("type") as BlockType, content: { columns: p.get("columns") as number } })
      : 0;
  const inSlot = (m: Y.Map<unknown>) =>
    n === 0 || Math.max(0, Math.min(n - 1, Number(m.get("slot")) || 0)) === Math.min(n - 1, target.slot);
  const siblings = orderedIds(blocks, (m) => !m.has(DELETED) && str(m.get("parent")) === parent && inSlot(m)).filter(
    (x) => x !== self,
  );
  const at = Math.max(0, Math.min(target.index, siblings.length));
  const ord = (id: string) => Number(blocks.get(id)!.get("order")) || 0;
  let before = at > 0 ? ord(siblings[at - 1]) : null;
  let after = at < siblings.length ? ord(siblings[at]) : null;
  if (before !== null && after !== null && before >= after) {
    // neighbours tie (a lowered column count merged two columns): number the list afresh first
    // (called inside the caller's transaction, so the renumbering and the placement are one update)
    siblings.forEach((id, i) => blocks.get(id)!.set("order", i + 1));
    before = at;
    after = at + 1;
  }
  if (before === null && after === null) return 1;
  if (before === null) return after! - 1;
  if (after === null) return before + 1;
  return (before + after) / 2;
}

/** Inserts a block (with any children it holds) at `target`; false when the drop rules refuse it there. */
export function insertBlock(doc: Y.Doc, block: EmailBlock, target: BlockTarget): boolean {
  const parent = parentOf(doc, target);
  if (parent === undefined || !canDrop(block.type, parent)) return false;
  doc.transact(() => {
    const flat: Parameters<typeof flatten>[3] = [];
    flatten([block], target.parentId ?? "", target.slot, flat);
    const blocks = emailBlocks(doc);
    const order = orderAt(doc, target);
    flat.forEach((f, i) => blocks.set(f.block.id, blockMap(f.block, f.parent, f.slot, i === 0 ? order : f.order)));
  });
  return true;
}

/** Moves a block to `target`; false when it is gone, the drop rules refuse it there, or it would go inside itself. */
export function moveBlock(doc: Y.Doc, id: string, target: BlockTarget): boolean {
  const m = live(doc, id);
  if (!m) return false;
  const parent = parentOf(doc, target);
  if (parent === undefined || !canDrop(m.get("type") as BlockType, parent)) return false;
  if (target.parentId !== null && (target.parentId === id || descendants(doc, id).includes(target.parentId)))
    return false;
  // parent, slot and order are written together, so of two concurrent moves of one block one wins whole
  doc.transact(() => {
    const order = orderAt(doc, target, id);
    m.set("parent", target.parentId ?? "");
    m.set("slot", target.slot);
    m.set("order", order);
  });
  return true;
}

/** Sets the given properties of a block; unchanged ones are not written. False when it is gone. */
export function updateBlock(doc: Y.Doc, id: string, patch: Record<string, BlockValue>): boolean {
  const m = live(doc, id);
  if (!m) return false;
  const type = m.get("type");
  const texts = Object.keys(patch).filter(
    (k) => !STRUCTURE.has(k) && typeof patch[k] === "string" && isTextProp(type, k),
  );
  upgradeTexts(doc, m, texts);
  doc.transact(() => {
    for (const [k, v] of Object.entries(patch)) {
      if (STRUCTURE.has(k)) continue;
      if (texts.includes(k)) setText(m, k, v as string);
      else if (m.get(k) !== v) m.set(k, v);
    }
  });
  return true;
}

/**
 * Deletes a block and everything inside it: each is marked deleted (`by`: who, shown to a teammate
 * editing it), so undo, or `restoreBlock`, brings them back with their latest content.
 */
export function removeBlock(doc: Y.Doc, id: string, by = "") {
  const blocks = emailBlocks(doc);
  if (!live(doc, id)) return;
  doc.transact(() => {
    for (const d of descendants(doc, id)) if (!blocks.get(d)!.has(DELETED)) blocks.get(d)!.set(DELETED, by);
    blocks.get(id)!.set(DELETED, by);
  });
}

/** Who deleted a block ("" when unknown), or null when it is not deleted (or never existed). */
export function blockDeletedBy(doc: Y.Doc, id: string): string | null {
  const m = emailBlocks(doc).get(id);
  if (!m || !m.has(DELETED)) return null;
  const by = m.get(DELETED);
  return typeof by === "string" ? by : "";
}

/**
 * Brings a deleted block back as it is now, with what was deleted with it (the blocks inside it
 * marked by the same delete), and, when its container is deleted too, that container first.
 */
export function restoreBlock(doc: Y.Doc, id: string): boolean {
  const blocks = emailBlocks(doc);
  const m = blocks.get(id);
  if (!m || !m.has(DELETED)) return false;
  doc.transact(() => {
    // the outermost block deleted with it: a deleted container above it, if any
    let top = id;
    for (
      let p = str(m.get("parent")), depth = 0;
      p && blocks.get(p)?.has(DELETED) && depth < 8;
      p = str(blocks.get(p)!.get("parent")), depth++
    )
      top = p;
    const by = blocks.get(top)!.get(DELETED);
    for (const d of descendants(doc, top)) if (blocks.get(d)!.get(DELETED) === by) blocks.get(d)!.delete(DELETED);
    blocks.get(top)!.delete(DELETED);
  });
  return true;
}

/** Where a block is: its container (null: the canvas), column and position. */
export function locateBlock(doc: Y.Doc, id: string): BlockTarget | null {
  const tree = readBlocks(doc);
  const find = (list: EmailBlock[], parentId: string | null, slot: number): BlockTarget | null => {
    for (let i = 0; i < list.length; i++) {
      const b = list[i];
      if (b.id === id) return { parentId, slot, index: i };
      const n = hasColumns(b.type) ? columnCount(b) : isWrapper(b.type) ? 1 : 0;
      for (let s = 0; s < n; s++) {
        const hit = find(childrenOf(b, s), b.id, s);
        if (hit) return hit;
      }
    }
    return null;
  };
  return find(tree, null, 0);
}

/** A copy of a block (and its children) with new ids, to insert after it. */
export function cloneBlock(block: EmailBlock, newId: () => string): EmailBlock {
  const content: BlockContent = {};
  for (const [k, v] of Object.entries(block.content)) {
    if (k === "children") content.children = (v as EmailBlock[]).map((c) => cloneBlock(c, newId));
    else if (k === "columnChildren")
      content.columnChildren = (v as EmailBlock[][]).map((col) => col.map((c) => cloneBlock(c, newId)));
    else content[k] = v;
  }
  return { id: newId(), type: block.type, content };
}

/** Undo/redo of this user's own changes (teammates' updates carry the provider as origin and are never undone). */
export function localEmailUndoManager(doc: Y.Doc): Y.UndoManager {
  return new Y.UndoManager([emailBlocks(doc), emailMeta(doc)], {
    trackedOrigins: new Set([null]),
    captureTimeout: 500,
  });
}
