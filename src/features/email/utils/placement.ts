/**
 * Where blocks go in the builder, as pure functions of the block tree: the position of every
 * block, the list a drop lands in (before or after a block, or at the end of a container), where
 * "Add" puts a new block, and the containers a block can be moved to from the keyboard.
 */
import {
  BLOCK_LABELS,
  canDrop,
  childrenOf,
  columnCount,
  hasColumns,
  isWrapper,
  type BlockType,
  type EmailBlock,
} from "@convex/lib/email/blocks";
import type { BlockTarget } from "@convex/lib/email/draft";

export type Placement = {
  parentId: string | null;
  slot: number;
  index: number;
  type: BlockType;
  parentType: BlockType | null;
};

/** A list of blocks: the canvas (parentId null) or a container's column. */
export function listId(parentId: string | null, slot: number): string {
  return `list:${parentId ?? "root"}:${slot}`;
}

/** Every block's position, by id. */
export function placements(blocks: EmailBlock[]): Map<string, Placement> {
  const out = new Map<string, Placement>();
  const visit = (list: EmailBlock[], parentId: string | null, parentType: BlockType | null, slot: number) =>
    list.forEach((b, index) => {
      out.set(b.id, { parentId, slot, index, type: b.type, parentType });
      const n = hasColumns(b.type) ? columnCount(b) : isWrapper(b.type) ? 1 : 0;
      for (let s = 0; s < n; s++) visit(childrenOf(b, s), b.id, b.type, s);
    });
  visit(blocks, null, null, 0);
  return out;
}

/** The blocks of one list. */
export function listBlocks(blocks: EmailBlock[], parentId: string | null, slot: number): EmailBlock[] {
  if (parentId === null) return blocks;
  const find = (list: EmailBlock[]): EmailBlock | null => {
    for (const b of list) {
      if (b.id === parentId) return b;
      const n = hasColumns(b.type) ? columnCount(b) : isWrapper(b.type) ? 1 : 0;
      for (let s = 0; s < n; s++) {
        const hit = find(childrenOf(b, s));
        if (hit) return hit;
      }
    }
    return null;
  };
  const parent = find(blocks);
  return parent ? childrenOf(parent, slot) : [];
}

/**
 * The target of a drop over a block (`after`: the pointer is past its middle) or over a list's
 * own area (its end). For a block moved within its own list, the index counts the others only.
 * `byOrder` (a keyboard move): over a block of the moving block's own list, the side is the
 * direction of the move (below it when moving down, above it when moving up), whatever the
 * measured boxes say: a box measured while the canvas still lays out must not undo the move.
 */
export function dropTarget(
  blocks: EmailBlock[],
  over:
    | { kind: "block"; id: string; after: boolean; byOrder?: boolean }
    | { kind: "list"; parentId: string | null; slot: number },
  movingId?: string,
): BlockTarget | null {
  const where = placements(blocks);
  const m = movingId ? where.get(movingId) : undefined;
  let target: BlockTarget;
  if (over.kind === "list") {
    target = { parentId: over.parentId, slot: over.slot, index: listBlocks(blocks, over.parentId, over.slot).length };
  } else {
    const p = where.get(over.id);
    if (!p) return null;
    const sameList = !!m && m.parentId === p.parentId && m.slot === p.slot;
    const after = over.byOrder && sameList ? m.index < p.index : over.after;
    target = { parentId: p.parentId, slot: p.slot, index: p.index + (after ? 1 : 0) };
  }
  if (m && m.parentId === target.parentId && m.slot === target.slot && m.index < target.index) target.index -= 1;
  return target;
}

/** Whether `type` may go to `target` in this tree. */
export function allowedAt(blocks: EmailBlock[], type: BlockType, target: BlockTarget): boolean {
  if (target.parentId === null) return true;
  const p = placements(blocks).get(target.parentId);
  return !!p && canDrop(type, { type: p.type, slot: target.slot });
}

/**
 * Where "Add" puts a new block of `type`: into the selected container (its end; a columns block's
 * first column), else after the selected block; where that is not allowed, after its top-level
 * block; with nothing selected, at the end of the canvas but before a closing footer.
 */
export function insertionPoint(blocks: EmailBlock[], type: BlockType, selectedId: string | null): BlockTarget {
  const where = placements(blocks);
  const sel = selectedId ? where.get(selectedId) : undefined;
  const endOfCanvas = (): BlockTarget => {
    const last = blocks[blocks.length - 1];
    return { parentId: null, slot: 0, index: last?.type === "footer" ? blocks.length - 1 : blocks.length };
  };
  if (!sel || !selectedId) return endOfCanvas();
  const candidates: BlockTarget[] = [];
  if (isWrapper(sel.type) || hasColumns(sel.type))
    candidates.push({ parentId: selectedId, slot: 0, index: listBlocks(blocks, selectedId, 0).length });
  candidates.push({ parentId: sel.parentId, slot: sel.slot, index: sel.index + 1 });
  // the top-level block holding the selection
  let top = selectedId;
  while (where.get(top)?.parentId) top = where.get(top)!.parentId!;
  candidates.push({ parentId: null, slot: 0, index: where.get(top)!.index + 1 });
  return candidates.find((t) => allowedAt(blocks, type, t)) ?? endOfCanvas();
}

/** The places a block can be moved to from the keyboard (the end of each list that accepts it, other than its own and its own inside). */
export function moveDestinations(blocks: EmailBlock[], id: string): Array<{ label: string; target: BlockTarget }> {
  const where = placements(blocks);
  const me = where.get(id);
  if (!me) return [];
  const inside = (candidate: string | null): boolean => {
    for (let c = candidate; c; c = where.get(c)?.parentId ?? null) if (c === id) return true;
    return false;
  };
  const out: Array<{ label: string; target: BlockTarget }> = [];
  if (me.parentId !== null)
    out.push({ label: "Canvas (end)", target: { parentId: null, slot: 0, index: blocks.length } });
  const counts = new Map<BlockType, number>();
  for (const [bid, p] of where) {
    const n = hasColumns(p.type)
      ? p.type === "sidebar"
        ? 2
        : columnCount(findBlock(blocks, bid)!)
      : isWrapper(p.type)
        ? 1
        : 0;
    if (n === 0) continue;
    const ordinal = (counts.get(p.type) ?? 0) + 1;
    counts.set(p.type, ordinal);
    if (inside(bid)) continue;
    for (let s = 0; s < n; s++) {
      if (bid === me.parentId && s === me.slot) continue;
      if (!canDrop(me.type, { type: p.type, slot: s })) continue;
      const part = p.type === "sidebar" ? (s === 0 ? " › sidebar" : " › main") : n > 1 ? ` › column ${s + 1}` : "";
      out.push({
        label: `${BLOCK_LABELS[p.type]} ${ordinal}${part}`,
        target: { parentId: bid, slot: s, index: listBlocks(blocks, bid, s).length },
      });
    }
  }
  return out;
}

export function findBlock(blocks: EmailBlock[], id: string): EmailBlock | null {
  const p = placements(blocks).get(id);
  if (!p) return null;
  return listBlocks(blocks, p.parentId, p.slot)[p.index] ?? null;
}
