/**
 * Where blocks go in the email builder (src/features/email/utils/placement.ts): the target of a
 * drop (before/after a block, a list's end, a move down within one list), where "Add" puts a new
 * block, and the keyboard's move destinations with their labels. Checked against the document
 * model too: a drop target applied with moveBlock lands where the pointer was.
 */
import { describe, expect, test } from "vitest";
import * as Y from "yjs";
import { newBlock, type BlockType, type BlockValue, type EmailBlock } from "@convex/lib/email/blocks";
import { moveBlock, readBlocks, writeEmailDraft, type BlockTarget } from "@convex/lib/email/draft";
import {
  allowedAt,
  dropTarget,
  findBlock,
  insertionPoint,
  listBlocks,
  listId,
  moveDestinations,
  placements,
} from "@/features/email/utils/placement";

const NOW = new Date(2026, 0, 1);

function b(
  type: BlockType,
  id: string,
  content: Record<string, BlockValue> = {},
  kids?: EmailBlock[] | EmailBlock[][],
): EmailBlock {
  const block = newBlock(type, id, NOW);
  Object.assign(block.content, content);
  if (kids) block.content[type === "columns" || type === "sidebar" ? "columnChildren" : "children"] = kids;
  return block;
}
const t = (id: string) => b("text", id);
const canvas = (index: number): BlockTarget => ({ parentId: null, slot: 0, index });
const into = (parentId: string, index: number, slot = 0): BlockTarget => ({ parentId, slot, index });

/**
 * h, s1 [t1, c1 (3) [[x], [y1, y2], []], t2], sb1 [[side], [main]], s2 [], k1 [c2 (2) [[], [z]]],
 * c3 (1) [[solo]], t3, f
 */
function design(): EmailBlock[] {
  return [
    b("header", "h"),
    b("section", "s1", {}, [t("t1"), b("columns", "c1", { columns: 3 }, [[t("x")], [t("y1"), t("y2")], []]), t("t2")]),
    b("sidebar", "sb1", {}, [[t("side")], [t("main")]]),
    b("section", "s2", {}, []),
    b("card", "k1", {}, [b("columns", "c2", { columns: 2 }, [[], [t("z")]])]),
    b("columns", "c3", { columns: 1 }, [[t("solo")]]),
    t("t3"),
    b("footer", "f"),
  ];
}
const BLOCKS = design();

describe("placements and lists", () => {
  test("every block's container, column, index and types", () => {
    const where = placements(BLOCKS);
    expect(where.get("h")).toEqual({ parentId: null, slot: 0, index: 0, type: "header", parentType: null });
    expect(where.get("y2")).toEqual({ parentId: "c1", slot: 1, index: 1, type: "text", parentType: "columns" });
    expect(where.get("main")).toEqual({ parentId: "sb1", slot: 1, index: 0, type: "text", parentType: "sidebar" });
    expect(where.get("z")).toEqual({ parentId: "c2", slot: 1, index: 0, type: "text", parentType: "columns" });
    expect(where.size).toBe(19);
    expect(listBlocks(BLOCKS, "c1", 1).map((x) => x.id)).toEqual(["y1", "y2"]);
    expect(listBlocks(BLOCKS, "ghost", 0)).toEqual([]);
    expect(findBlock(BLOCKS, "c2")?.id).toBe("c2");
    expect(findBlock(BLOCKS, "ghost")).toBeNull();
    expect(listId(null, 0)).toBe("list:root:0");
    expect(listId("c1", 2)).toBe("list:c1:2");
  });

  test("allowedAt follows the drop rules", () => {
    expect(allowedAt(BLOCKS, "footer", canvas(0))).toBe(true);
    expect(allowedAt(BLOCKS, "text", into("c1", 0, 2))).toBe(true);
    expect(allowedAt(BLOCKS, "columns", into("s2", 0))).toBe(true);
    expect(allowedAt(BLOCKS, "columns", into("c1", 0))).toBe(false);
    expect(allowedAt(BLOCKS, "hero", into("k1", 0))).toBe(false);
    expect(allowedAt(BLOCKS, "text", into("t1", 0))).toBe(false);
    expect(allowedAt(BLOCKS, "text", into("ghost", 0))).toBe(false);
  });
});

describe("dropTarget", () => {
  test("over a block: before it is its index, after it the next", () => {
    expect(dropTarget(BLOCKS, { kind: "block", id: "t2", after: false })).toEqual(into("s1", 2));
    expect(dropTarget(BLOCKS, { kind: "block", id: "t2", after: true })).toEqual(into("s1", 3));
    expect(dropTarget(BLOCKS, { kind: "block", id: "y1", after: true })).toEqual(into("c1", 1, 1));
    expect(dropTarget(BLOCKS, { kind: "block", id: "h", after: false })).toEqual(canvas(0));
    expect(dropTarget(BLOCKS, { kind: "block", id: "ghost", after: false })).toBeNull();
  });

  test("over a list's own area: its end (an empty column, a column with blocks, the canvas)", () => {
    expect(dropTarget(BLOCKS, { kind: "list", parentId: "c1", slot: 2 })).toEqual(into("c1", 0, 2));
    expect(dropTarget(BLOCKS, { kind: "list", parentId: "c1", slot: 1 })).toEqual(into("c1", 2, 1));
    expect(dropTarget(BLOCKS, { kind: "list", parentId: "s1", slot: 0 })).toEqual(into("s1", 3));
    expect(dropTarget(BLOCKS, { kind: "list", parentId: null, slot: 0 })).toEqual(canvas(8));
  });

  test("moving within the same list: downward the index counts the others, upward and across lists it does not change", () => {
    // t1 (index 0 in s1) dropped after t2 (index 2): the others are [c1, t2], so index 2
    expect(dropTarget(BLOCKS, { kind: "block", id: "t2", after: true }, "t1")).toEqual(into("s1", 2));
    expect(dropTarget(BLOCKS, { kind: "block", id: "t2", after: false }, "t1")).toEqual(into("s1", 1));
    // over itself: it stays where it is
    expect(dropTarget(BLOCKS, { kind: "block", id: "t1", after: true }, "t1")).toEqual(into("s1", 0));
    expect(dropTarget(BLOCKS, { kind: "block", id: "t1", after: false }, "t1")).toEqual(into("s1", 0));
    // upward: unchanged
    expect(dropTarget(BLOCKS, { kind: "block", id: "t1", after: false }, "t2")).toEqual(into("s1", 0));
    // to its own list's end
    expect(dropTarget(BLOCKS, { kind: "list", parentId: "c1", slot: 1 }, "y1")).toEqual(into("c1", 1, 1));
    // another list: unchanged
    expect(dropTarget(BLOCKS, { kind: "block", id: "y2", after: true }, "x")).toEqual(into("c1", 2, 1));
    // a column of the same block is another list
    expect(dropTarget(BLOCKS, { kind: "list", parentId: "c1", slot: 1 }, "x")).toEqual(into("c1", 2, 1));
  });

  test("a keyboard move within its own list goes the way it moved, whatever the measured boxes say", () => {
    // t2 moved up over c1: above it, even when its (stale) box measured past c1's middle
    expect(dropTarget(BLOCKS, { kind: "block", id: "c1", after: true, byOrder: true }, "t2")).toEqual(into("s1", 1));
    expect(dropTarget(BLOCKS, { kind: "block", id: "c1", after: true }, "t2")).toEqual(into("s1", 2));
    // t1 moved down over c1: below it (the others are [c1, t2], so index 1), even when measured above its middle
    expect(dropTarget(BLOCKS, { kind: "block", id: "c1", after: false, byOrder: true }, "t1")).toEqual(into("s1", 1));
    expect(dropTarget(BLOCKS, { kind: "block", id: "c1", after: false }, "t1")).toEqual(into("s1", 0));
    // into another list the measured side still decides
    expect(dropTarget(BLOCKS, { kind: "block", id: "y1", after: false, byOrder: true }, "t3")).toEqual(
      into("c1", 0, 1),
    );
    expect(dropTarget(BLOCKS, { kind: "block", id: "y1", after: true, byOrder: true }, "t3")).toEqual(into("c1", 1, 1));
  });

  test("the target applied with moveBlock puts the block where the pointer was", () => {
    const cases: Array<
      [
        string,
        { kind: "block"; id: string; after: boolean } | { kind: "list"; parentId: string | null; slot: number },
        string[],
      ]
    > = [
      ["h", { kind: "block", id: "s2", after: true }, ["s1", "sb1", "s2", "h", "k1", "c3", "t3", "f"]],
      ["h", { kind: "block", id: "s2", after: false }, ["s1", "sb1", "h", "s2", "k1", "c3", "t3", "f"]],
      ["t3", { kind: "block", id: "h", after: true }, ["h", "t3", "s1", "sb1", "s2", "k1", "c3", "f"]],
      ["s1", { kind: "list", parentId: null, slot: 0 }, ["h", "sb1", "s2", "k1", "c3", "t3", "f", "s1"]],
    ];
    for (const [moving, over, want] of cases) {
      const doc = new Y.Doc();
      writeEmailDraft(doc, { blocks: design() });
      const target = dropTarget(readBlocks(doc), over, moving)!;
      expect(moveBlock(doc, moving, target)).toBe(true);
      expect(readBlocks(doc).map((x) => x.id)).toEqual(want);
    }
    const doc = new Y.Doc();
    writeEmailDraft(doc, { blocks: design() });
    expect(moveBlock(doc, "t1", dropTarget(readBlocks(doc), { kind: "block", id: "t2", after: true }, "t1")!)).toBe(
      true,
    );
    expect((readBlocks(doc)[1].content.children as EmailBlock[]).map((x) => x.id)).toEqual(["c1", "t2", "t1"]);
  });
});

describe("insertionPoint", () => {
  test("nothing selected: the end of the canvas, before a closing footer", () => {
    expect(insertionPoint(BLOCKS, "text", null)).toEqual(canvas(7));
    expect(insertionPoint(BLOCKS, "hero", null)).toEqual(canvas(7));
    expect(insertionPoint(BLOCKS.slice(0, -1), "text", null)).toEqual(canvas(7));
    expect(insertionPoint([], "text", null)).toEqual(canvas(0));
    expect(insertionPoint([b("footer", "only")], "text", null)).toEqual(canvas(0));
    // a selection that no longer exists counts as none
    expect(insertionPoint(BLOCKS, "text", "ghost")).toEqual(canvas(7));
  });

  test("a selected container: its end (a columns block's first column)", () => {
    expect(insertionPoint(BLOCKS, "text", "s1")).toEqual(into("s1", 3));
    expect(insertionPoint(BLOCKS, "columns", "s2")).toEqual(into("s2", 0));
    expect(insertionPoint(BLOCKS, "image", "c1")).toEqual(into("c1", 1, 0));
    expect(insertionPoint(BLOCKS, "button", "sb1")).toEqual(into("sb1", 1, 0));
  });

  test("a selected leaf in a column: right after it; a hero there: after the top-level block holding it", () => {
    expect(insertionPoint(BLOCKS, "text", "y1")).toEqual(into("c1", 1, 1));
    expect(insertionPoint(BLOCKS, "divider", "main")).toEqual(into("sb1", 1, 1));
    expect(insertionPoint(BLOCKS, "hero", "y1")).toEqual(canvas(2)); // after s1
    expect(insertionPoint(BLOCKS, "footer", "z")).toEqual(canvas(5)); // after k1
    // a columns block with a leaf of a section's column selected: after the top-level section
    expect(insertionPoint(BLOCKS, "columns", "y2")).toEqual(canvas(2));
    // a columns block with a leaf of a section selected: next to the leaf, in the section
    expect(insertionPoint(BLOCKS, "columns", "t1")).toEqual(into("s1", 1));
  });

  test("what cannot go into a selected container goes after it, or after its top-level block", () => {
    expect(insertionPoint(BLOCKS, "hero", "s1")).toEqual(canvas(2));
    expect(insertionPoint(BLOCKS, "section", "c2")).toEqual(canvas(5)); // c2 is in k1
    expect(insertionPoint(BLOCKS, "columns", "c2")).toEqual(into("k1", 1)); // after c2, in the card
    expect(insertionPoint(BLOCKS, "text", "h")).toEqual(canvas(1));
  });
});

describe("moveDestinations", () => {
  const labels = (id: string) => moveDestinations(BLOCKS, id).map((d) => d.label);

  test("a leaf in a column: the canvas, every wrapper and every other column, numbered by type in document order", () => {
    const dests = moveDestinations(BLOCKS, "y1");
    expect(dests.map((d) => d.label)).toEqual([
      "Canvas (end)",
      "Section 1",
      "Columns 1 › column 1",
      "Columns 1 › column 3",
      "Sidebar 1 › sidebar",
      "Sidebar 1 › main",
      "Section 2",
      "Card 1",
      "Columns 2 › column 1",
      "Columns 2 › column 2",
      "Columns 3",
    ]);
    const by = Object.fromEntries(dests.map((d) => [d.label, d.target]));
    expect(by["Canvas (end)"]).toEqual(canvas(8));
    expect(by["Section 1"]).toEqual(into("s1", 3));
    expect(by["Columns 1 › column 3"]).toEqual(into("c1", 0, 2));
    expect(by["Sidebar 1 › main"]).toEqual(into("sb1", 1, 1));
    expect(by["Columns 2 › column 2"]).toEqual(into("c2", 1, 1));
    expect(by["Columns 3"]).toEqual(into("c3", 1, 0));
  });

  test("a top-level leaf: no canvas entry (its own list)", () => {
    const l = labels("t3");
    expect(l).not.toContain("Canvas (end)");
    expect(l).toContain("Section 1");
    expect(l).toContain("Columns 1 › column 2");
  });

  test("a columns block: only wrappers and the canvas, never inside itself or its own list", () => {
    expect(labels("c1")).toEqual(["Canvas (end)", "Section 2", "Card 1"]);
    expect(labels("c2")).toEqual(["Canvas (end)", "Section 1", "Section 2"]);
    // on the canvas: the wrappers only
    expect(labels("c3")).toEqual(["Section 1", "Section 2", "Card 1"]);
    const s1 = moveDestinations(BLOCKS, "c1").find((d) => d.label === "Section 2")!;
    expect(s1.target).toEqual(into("s2", 0));
  });

  test("wrappers, header, hero and footer go nowhere but the canvas they are on; an unknown block nowhere", () => {
    expect(labels("s1")).toEqual([]);
    expect(labels("k1")).toEqual([]);
    expect(labels("sb1")).toEqual(["Section 1", "Section 2", "Card 1"]);
    expect(labels("h")).toEqual([]);
    expect(labels("f")).toEqual([]);
    expect(labels("ghost")).toEqual([]);
  });

  test("the block's own inside is never offered, and the numbering stays as in the document", () => {
    // z sits in Columns 2 (inside Card 1): its own column is skipped, the other offered
    expect(labels("z")).toContain("Columns 2 › column 1");
    expect(labels("z")).not.toContain("Columns 2 › column 2");
    for (const id of ["c1", "c2", "c3", "sb1"])
      for (const d of moveDestinations(BLOCKS, id)) expect(d.target.parentId).not.toBe(id);
    for (const d of moveDestinations(BLOCKS, "c2")) expect(d.target.parentId).not.toBe("k1");
  });
});
