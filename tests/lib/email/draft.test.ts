/**
 * The email design as a Yjs document (convex/lib/email/draft.ts), headless: a nested tree written
 * and read back; inserts and moves with their index semantics; the drop rules refusing without a
 * change; removing a container with its inside; lowering a columns block's count; two copies
 * exchanging updates (per-property merge, concurrent moves, a child added into a section a
 * teammate deletes, concurrent inserts at one place); undo of one's own changes only; clones;
 * text as Y.Text (both people's typing kept, stored plain strings still read) and a delete undone
 * after a teammate typed into the block (their typing kept).
 */
import { describe, expect, test } from "vitest";
import * as Y from "yjs";
import { allBlocks, newBlock, type BlockType, type BlockValue, type EmailBlock } from "@convex/lib/email/blocks";
import {
  blockDeletedBy,
  cloneBlock,
  emailBlocks,
  emailMeta,
  insertBlock,
  isEmptyEmailDraft,
  localEmailUndoManager,
  locateBlock,
  moveBlock,
  readBlocks,
  readEmailDraft,
  removeBlock,
  restoreBlock,
  setEmailMeta,
  updateBlock,
  writeEmailDraft,
  type BlockTarget,
} from "@convex/lib/email/draft";

const NOW = new Date(2026, 0, 1);

/** A block with its defaults, some content, and children (a wrapper's list or a columns block's lists). */
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
const text = (id: string, words = id) => b("text", id, { text: words });

/** The tree as ids: a leaf is its id, a wrapper [id, [...children]], a columns block [id, [[...], [...]]]. */
type Shape = string | [string, Shape[]] | [string, Shape[][]];
function shape(list: EmailBlock[]): Shape[] {
  return list.map((blk): Shape => {
    if (Array.isArray(blk.content.children)) return [blk.id, shape(blk.content.children as EmailBlock[])];
    if (Array.isArray(blk.content.columnChildren))
      return [blk.id, (blk.content.columnChildren as EmailBlock[][]).map(shape)];
    return blk.id;
  });
}
const tree = (doc: Y.Doc) => shape(readBlocks(doc));
const canvas = (index: number): BlockTarget => ({ parentId: null, slot: 0, index });
const into = (parentId: string, index: number, slot = 0): BlockTarget => ({ parentId, slot, index });

/**
 * header, section s [t1, columns c (3) [[a], [b1, b2], [c1]], t2], sidebar sb [[side], [main]],
 * card k [], footer f
 */
function design(): EmailBlock[] {
  return [
    b("header", "h", { title: "Jane for Council" }),
    b("section", "s", { backgroundColor: "#fafafa", padding: 12 }, [
      text("t1"),
      b("columns", "c", { columns: 3, gap: 8 }, [
        [text("a")],
        [text("b1"), b("button", "b2", { url: "https://example.org" })],
        [b("image", "c1", { src: "https://example.org/x.png" })],
      ]),
      b("heading", "t2", { text: "Vote", level: "h1" }),
    ]),
    b("sidebar", "sb", { sidebarPosition: "right" }, [[text("side")], [text("main")]]),
    b("card", "k", { shadow: "lg" }, []),
    b("footer", "f", { companyName: "Jane" }),
  ];
}

function seeded(): Y.Doc {
  const doc = new Y.Doc();
  writeEmailDraft(doc, { meta: { name: "Rally", subject: "Hi {{voter.first_name}}" }, blocks: design() });
  return doc;
}

const REMOTE = { name: "provider" };

/** Each copy's missing updates, both ways, applied with an origin object as the provider does. */
function sync(a: Y.Doc, b2: Y.Doc) {
  const toB = Y.encodeStateAsUpdate(a, Y.encodeStateVector(b2));
  const toA = Y.encodeStateAsUpdate(b2, Y.encodeStateVector(a));
  Y.applyUpdate(b2, toB, REMOTE);
  Y.applyUpdate(a, toA, REMOTE);
}

function pair(): { a: Y.Doc; b: Y.Doc } {
  const a = seeded();
  const other = new Y.Doc();
  sync(a, other);
  return { a, b: other };
}

/** Everything the document holds, to prove a refused operation changed nothing. */
const state = (doc: Y.Doc) => JSON.stringify(emailBlocks(doc).toJSON());

describe("write and read", () => {
  test("a nested tree (section with children, 3 columns, sidebar) comes back as written, meta included", () => {
    const doc = seeded();
    const draft = readEmailDraft(doc);
    expect(draft.blocks).toEqual(design());
    expect(draft.meta).toEqual({
      name: "Rally",
      subject: "Hi {{voter.first_name}}",
      fromName: "",
      fromEmail: "",
      replyTo: "",
      previewText: "",
    });
    expect(isEmptyEmailDraft(doc)).toBe(false);
    expect(isEmptyEmailDraft(new Y.Doc())).toBe(true);
  });

  test("writing again replaces the blocks; the flat map holds one entry per block with parent, slot and order", () => {
    const doc = seeded();
    const m = emailBlocks(doc);
    expect(m.size).toBe(allBlocks(design()).length);
    expect(m.get("b2")!.toJSON()).toMatchObject({ type: "button", parent: "c", slot: 1, order: 2 });
    expect(m.get("main")!.toJSON()).toMatchObject({ parent: "sb", slot: 1, order: 1 });
    writeEmailDraft(doc, { blocks: [text("only")] });
    expect(tree(doc)).toEqual(["only"]);
    // the blocks replaced stay, marked deleted (undo brings them back whole)
    const live = [...m.entries()].filter(([, b]) => !b.has("deleted")).map(([id]) => id);
    expect(live).toEqual(["only"]);
    expect(readEmailDraft(doc).meta.name).toBe("Rally");
  });

  test("locateBlock finds a block's container, column and index", () => {
    const doc = seeded();
    expect(locateBlock(doc, "f")).toEqual(canvas(4));
    expect(locateBlock(doc, "b2")).toEqual(into("c", 1, 1));
    expect(locateBlock(doc, "main")).toEqual(into("sb", 0, 1));
    expect(locateBlock(doc, "nope")).toBeNull();
  });
});

describe("insertBlock", () => {
  test("on the canvas at an index (0, middle, end)", () => {
    const doc = seeded();
    expect(insertBlock(doc, text("first"), canvas(0))).toBe(true);
    expect(insertBlock(doc, text("mid"), canvas(2))).toBe(true);
    expect(insertBlock(doc, text("last"), canvas(99))).toBe(true);
    expect(tree(doc).map((x) => (typeof x === "string" ? x : x[0]))).toEqual([
      "first",
      "h",
      "mid",
      "s",
      "sb",
      "k",
      "f",
      "last",
    ]);
  });

  test("into a column, and into a section at the end, before and after a child", () => {
    const doc = seeded();
    expect(insertBlock(doc, text("x"), into("c", 0, 2))).toBe(true); // 3rd column, before c1
    expect(insertBlock(doc, text("y"), into("c", 5, 1))).toBe(true); // 2nd column, end
    expect(insertBlock(doc, text("end"), into("s", 3))).toBe(true); // section end
    expect(insertBlock(doc, text("before-t1"), into("s", 0))).toBe(true);
    expect(insertBlock(doc, text("after-t1"), into("s", 2))).toBe(true); // [before-t1, t1, ^, c, …]
    expect(insertBlock(doc, text("in-card"), into("k", 0))).toBe(true); // an empty wrapper
    const blocks = tree(doc);
    expect(blocks[1]).toEqual([
      "s",
      ["before-t1", "t1", "after-t1", ["c", [["a"], ["b1", "b2", "y"], ["x", "c1"]]], "t2", "end"],
    ]);
    expect(blocks[3]).toEqual(["k", ["in-card"]]);
  });

  test("a container goes in with its children, at the index asked for", () => {
    const doc = seeded();
    expect(
      insertBlock(doc, b("columns", "nc", { columns: 2 }, [[text("l")], [text("r1"), text("r2")]]), into("s", 1)),
    ).toBe(true);
    expect(tree(doc)[1]).toEqual([
      "s",
      ["t1", ["nc", [["l"], ["r1", "r2"]]], ["c", [["a"], ["b1", "b2"], ["c1"]]], "t2"],
    ]);
  });

  test.each([
    ["a footer into a column", b("footer", "nf"), into("c", 0, 1)],
    ["a section into a section", b("section", "ns", {}, []), into("s", 0)],
    ["a hero into a card", b("hero", "nh"), into("k", 0)],
    ["a columns block into a column", b("columns", "ncol", {}, [[], []]), into("c", 0, 0)],
    ["a header into the sidebar", b("header", "nhd"), into("sb", 0, 1)],
    ["a text into a missing parent", text("lost"), into("gone", 0)],
    ["a text into a leaf", text("leafy"), into("t1", 0)],
  ])("refused: %s — false and nothing changes", (_name, block, target) => {
    const doc = seeded();
    const before = state(doc);
    expect(insertBlock(doc, block, target)).toBe(false);
    expect(state(doc)).toBe(before);
  });
});

describe("moveBlock", () => {
  test("within a list: up and down (the index counts the others)", () => {
    const doc = seeded();
    expect(moveBlock(doc, "t2", into("s", 0))).toBe(true); // up to the top of the section
    expect(shape(readBlocks(doc))[1]).toEqual(["s", ["t2", "t1", ["c", [["a"], ["b1", "b2"], ["c1"]]]]]);
    expect(moveBlock(doc, "t2", into("s", 2))).toBe(true); // down to the end: others are [t1, c]
    expect(shape(readBlocks(doc))[1]).toEqual(["s", ["t1", ["c", [["a"], ["b1", "b2"], ["c1"]]], "t2"]]);
    expect(moveBlock(doc, "h", canvas(1))).toBe(true); // down one on the canvas
    expect(tree(doc).map((x) => (typeof x === "string" ? x : x[0]))).toEqual(["s", "h", "sb", "k", "f"]);
    expect(moveBlock(doc, "b2", into("c", 0, 1))).toBe(true);
    expect(locateBlock(doc, "b2")).toEqual(into("c", 0, 1));
  });

  test("across containers: column to column, column to section, section to canvas, columns block into a card", () => {
    const doc = seeded();
    expect(moveBlock(doc, "a", into("c", 1, 2))).toBe(true);
    expect(moveBlock(doc, "b1", into("k", 0))).toBe(true);
    expect(moveBlock(doc, "main", into("s", 0))).toBe(true);
    expect(moveBlock(doc, "t1", canvas(0))).toBe(true);
    expect(moveBlock(doc, "c", into("k", 1))).toBe(true);
    expect(tree(doc)).toEqual([
      "t1",
      "h",
      ["s", ["main", "t2"]],
      ["sb", [["side"], []]],
      ["k", ["b1", ["c", [[], ["b2"], ["c1", "a"]]]]],
      "f",
    ]);
  });

  test("refused: into itself, into its own descendant, against the drop rules, a missing block or parent — nothing changes", () => {
    const doc = seeded();
    const before = state(doc);
    expect(moveBlock(doc, "s", into("s", 0))).toBe(false); // a wrapper into itself
    expect(moveBlock(doc, "c", into("c", 0, 1))).toBe(false); // a columns block into its own column
    expect(moveBlock(doc, "k", into("k", 0))).toBe(false);
    // a section into its own columns block is both inside itself and against the drop rules
    expect(moveBlock(doc, "s", into("c", 0, 0))).toBe(false);
    expect(moveBlock(doc, "f", into("s", 0))).toBe(false);
    expect(moveBlock(doc, "h", into("c", 0, 0))).toBe(false);
    expect(moveBlock(doc, "sb", into("c", 0, 0))).toBe(false);
    expect(moveBlock(doc, "s", into("k", 0))).toBe(false);
    expect(moveBlock(doc, "ghost", canvas(0))).toBe(false);
    expect(moveBlock(doc, "t1", into("ghost", 0))).toBe(false);
    expect(state(doc)).toBe(before);
  });
});

describe("updateBlock and removeBlock", () => {
  test("updateBlock writes changed properties only, never the structure; false when the block is gone", () => {
    const doc = seeded();
    let transactions = 0;
    doc.on("afterTransaction", (tr: Y.Transaction) => {
      if (tr.changed.size > 0) transactions++;
    });
    expect(updateBlock(doc, "t1", { text: "t1" })).toBe(true); // unchanged: nothing written
    expect(transactions).toBe(0);
    expect(updateBlock(doc, "t1", { text: "Hello", parent: "k", order: -5, type: "footer" })).toBe(true);
    expect(transactions).toBe(1);
    expect(locateBlock(doc, "t1")).toEqual(into("s", 0));
    expect(readBlocks(doc)[1].content.children).toContainEqual(
      expect.objectContaining({ id: "t1", type: "text", content: expect.objectContaining({ text: "Hello" }) }),
    );
    expect(updateBlock(doc, "ghost", { text: "x" })).toBe(false);
  });

  test("removing a container removes everything inside it", () => {
    const doc = seeded();
    removeBlock(doc, "s");
    expect(tree(doc)).toEqual(["h", ["sb", [["side"], ["main"]]], ["k", []], "f"]);
    // kept, marked deleted, so undo restores them with their latest content
    for (const id of ["s", "t1", "c", "a", "b1", "b2", "c1", "t2"])
      expect(emailBlocks(doc).get(id)!.has("deleted")).toBe(true);
    removeBlock(doc, "ghost"); // no-op
    removeBlock(doc, "main");
    expect(tree(doc)[1]).toEqual(["sb", [["side"], []]]);
  });
});

describe("column count", () => {
  test("3 → 2 keeps the third column's children in the last column; back to 3 puts them back", () => {
    const doc = seeded();
    updateBlock(doc, "c", { columns: 2 });
    const c = () => readBlocks(doc)[1].content.children as EmailBlock[];
    const cols = () => (c()[1].content.columnChildren as EmailBlock[][]).map((col) => col.map((x) => x.id));
    expect(cols()).toHaveLength(2);
    expect(cols()[0]).toEqual(["a"]);
    expect([...cols()[1]].sort()).toEqual(["b1", "b2", "c1"]); // (interleaved by order: b1, c1, b2)
    expect(cols()[1].indexOf("b1")).toBeLessThan(cols()[1].indexOf("b2"));
    updateBlock(doc, "c", { columns: 1 });
    expect([...cols()[0]].sort()).toEqual(["a", "b1", "b2", "c1"]);
    updateBlock(doc, "c", { columns: 3 });
    expect(cols()).toEqual([["a"], ["b1", "b2"], ["c1"]]);
  });

  // After lowering the count, the last column shows its own children and the hidden column's
  // interleaved by `order` ([b1, c1, b2]); an index into that list must land there.
  test("after lowering, an insert at an index of the merged last column lands at that index of the list shown", () => {
    const doc = seeded();
    updateBlock(doc, "c", { columns: 2 });
    const col2 = () =>
      ((readBlocks(doc)[1].content.children as EmailBlock[])[1].content.columnChildren as EmailBlock[][])[1].map(
        (x) => x.id,
      );
    const shown = col2();
    expect(locateBlock(doc, shown[1])).toEqual(into("c", 1, 1));
    expect(insertBlock(doc, text("n"), into("c", 1, 1))).toBe(true);
    expect(col2()).toEqual([shown[0], "n", ...shown.slice(1)]);
  });
});

describe("two copies editing at once", () => {
  test("different properties of one block both survive", () => {
    const { a, b: other } = pair();
    updateBlock(a, "b2", { text: "Donate" });
    updateBlock(other, "b2", { backgroundColor: "#ff0000", url: "https://example.org/give" });
    sync(a, other);
    for (const doc of [a, other]) {
      const btn = allBlocks(readBlocks(doc)).find((x) => x.id === "b2")!;
      expect(btn.content).toMatchObject({
        text: "Donate",
        backgroundColor: "#ff0000",
        url: "https://example.org/give",
      });
    }
    expect(readEmailDraft(a)).toEqual(readEmailDraft(other));
  });

  test("concurrent moves of different blocks both apply", () => {
    const { a, b: other } = pair();
    expect(moveBlock(a, "t2", into("s", 0))).toBe(true);
    expect(moveBlock(other, "a", into("k", 0))).toBe(true);
    expect(moveBlock(other, "h", canvas(3))).toBe(true);
    sync(a, other);
    // h went to index 3 among the others [s, sb, k, f]: between k and f
    const want = [
      ["s", ["t2", "t1", ["c", [[], ["b1", "b2"], ["c1"]]]]],
      ["sb", [["side"], ["main"]]],
      ["k", ["a"]],
      "h",
      "f",
    ];
    expect(tree(a)).toEqual(want);
    expect(tree(other)).toEqual(want);
  });

  test("one adds a child into a section while the other deletes the section: the child survives on the canvas", () => {
    const { a, b: other } = pair();
    expect(insertBlock(a, text("late", "Added meanwhile"), into("s", 1))).toBe(true);
    expect(insertBlock(a, b("columns", "nc", {}, [[text("nl")], []]), into("s", 0))).toBe(true);
    removeBlock(other, "s");
    sync(a, other);
    for (const doc of [a, other]) {
      const top = tree(doc);
      expect(top).toContain("late");
      expect(top).toContainEqual(["nc", [["nl"], []]]);
      expect(top.some((x) => Array.isArray(x) && x[0] === "s")).toBe(false);
      for (const gone of ["t1", "c", "a", "t2"])
        expect(allBlocks(readBlocks(doc)).some((x) => x.id === gone)).toBe(false);
      expect(locateBlock(doc, "late")?.parentId).toBeNull();
    }
    expect(readBlocks(a)).toEqual(readBlocks(other));
  });

  test("concurrent inserts at the same place both survive, in the same order on both copies", () => {
    const { a, b: other } = pair();
    insertBlock(a, text("from-a"), into("s", 1));
    insertBlock(other, text("from-b"), into("s", 1));
    insertBlock(a, text("col-a"), into("c", 0, 1));
    insertBlock(other, text("col-b"), into("c", 0, 1));
    insertBlock(a, text("top-a"), canvas(0));
    insertBlock(other, text("top-b"), canvas(0));
    sync(a, other);
    expect(tree(a)).toEqual(tree(other));
    const s = tree(a).find((x) => Array.isArray(x) && x[0] === "s") as [string, Shape[]];
    const kids = s[1].map((x) => (typeof x === "string" ? x : x[0]));
    expect(kids[0]).toBe("t1");
    expect([...kids.slice(1, 3)].sort()).toEqual(["from-a", "from-b"]);
    expect(kids.slice(3)).toEqual(["c", "t2"]);
    expect(tree(a).slice(0, 2).sort()).toEqual(["top-a", "top-b"]);
    const c = s[1].find((x) => Array.isArray(x) && x[0] === "c") as [string, Shape[][]];
    expect([...c[1][1].slice(0, 2)].sort()).toEqual(["col-a", "col-b"]);
    expect(c[1][1].slice(2)).toEqual(["b1", "b2"]);
  });
  // Two concurrent moves of one block must not merge into the parent of one and the slot of the
  // other (moveBlock writes parent, slot and order together; wrappers ignore slot).
  test("the same block moved to two places at once ends wholly at one of them, and inserting after it lands after it", () => {
    const { a, b: other } = pair();
    insertBlock(a, text("k2"), into("k", 0));
    insertBlock(a, text("k1"), into("k", 0));
    sync(a, other);
    expect(moveBlock(a, "a", into("c", 1, 2))).toBe(true); // to the third column, after c1
    expect(moveBlock(other, "a", into("k", 1))).toBe(true); // into the card, between k1 and k2
    sync(a, other);
    expect(readBlocks(a)).toEqual(readBlocks(other));
    const at = locateBlock(a, "a")!;
    expect([into("c", 1, 2), into("k", 1)]).toContainEqual(at);
    expect(emailBlocks(a).get("a")!.get("slot")).toBe(at.slot);
    expect(insertBlock(a, text("n"), { ...at, index: at.index + 1 })).toBe(true);
    expect(locateBlock(a, "n")).toEqual({ ...at, index: at.index + 1 });
  });
});

describe("undo", () => {
  test("localEmailUndoManager undoes this copy's changes only; the teammate's stay (remote updates carry an origin)", () => {
    const { a, b: other } = pair();
    const undo = localEmailUndoManager(a);
    updateBlock(a, "t1", { text: "Mine" });
    undo.stopCapturing();
    updateBlock(other, "t1", { color: "#ff0000" });
    updateBlock(other, "t2", { text: "Theirs" });
    insertBlock(other, text("their-new"), canvas(0));
    sync(a, other);
    expect(undo.undoStack).toHaveLength(1); // the teammate's changes were not captured
    undo.undo();
    sync(a, other);
    for (const doc of [a, other]) {
      const all = allBlocks(readBlocks(doc));
      expect(all.find((x) => x.id === "t1")!.content).toMatchObject({ text: "t1", color: "#ff0000" });
      expect(all.find((x) => x.id === "t2")!.content.text).toBe("Theirs");
      expect(all.some((x) => x.id === "their-new")).toBe(true);
    }
    undo.redo();
    expect(allBlocks(readBlocks(a)).find((x) => x.id === "t1")!.content.text).toBe("Mine");
    undo.destroy();
  });

  test("an insert, a move and a remove are undone one step at a time", () => {
    const { a, b: other } = pair();
    const undo = localEmailUndoManager(a);
    const start = tree(a);
    insertBlock(a, text("n"), into("k", 0));
    undo.stopCapturing();
    moveBlock(a, "t2", canvas(0));
    undo.stopCapturing();
    removeBlock(a, "sb");
    undo.stopCapturing();
    updateBlock(other, "h", { title: "Remote title" });
    sync(a, other);
    undo.undo();
    expect(tree(a).some((x) => Array.isArray(x) && x[0] === "sb")).toBe(true);
    undo.undo();
    expect(locateBlock(a, "t2")).toEqual(into("s", 2));
    undo.undo();
    expect(tree(a)).toEqual(start);
    expect(readBlocks(a)[0].content.title).toBe("Remote title");
    undo.destroy();
  });
});

describe("text and deletes with a teammate (issue 33 items 1 and 2)", () => {
  const find = (doc: Y.Doc, id: string) => allBlocks(readBlocks(doc)).find((x) => x.id === id);

  test("two people typing in one text block both keep their keystrokes; so do the subject's", () => {
    const { a, b: other } = pair();
    const textIn = (doc: Y.Doc) => find(doc, "t1")!.content.text as string;
    for (const ch of " now") updateBlock(a, "t1", { text: textIn(a) + ch });
    for (const [i, ch] of [..."Act "].entries())
      updateBlock(other, "t1", { text: "Act ".slice(0, i) + ch + textIn(other).slice(i) });
    setEmailMeta(a, "subject", "Hi {{voter.first_name}}!");
    setEmailMeta(other, "subject", "Re: Hi {{voter.first_name}}");
    sync(a, other);
    for (const doc of [a, other]) {
      expect(find(doc, "t1")!.content.text).toBe("Act t1 now");
      expect(readEmailDraft(doc).meta.subject).toBe("Re: Hi {{voter.first_name}}!");
    }
    expect(emailBlocks(a).get("t1")!.get("text")).toBeInstanceOf(Y.Text);
  });

  test("deleting the section holding a text block while a teammate types in it, then undo: the block comes back with their typing", () => {
    const { a, b: other } = pair();
    const undo = localEmailUndoManager(other);
    updateBlock(a, "t1", { text: "t1 and more" });
    removeBlock(other, "s", "Bob Stone");
    expect(tree(other).map((x) => (Array.isArray(x) ? x[0] : x))).toEqual(["h", "sb", "k", "f"]);
    sync(a, other);
    expect(find(a, "t1")).toBeUndefined();
    expect(blockDeletedBy(a, "t1")).toBe("Bob Stone");
    expect(updateBlock(a, "t1", { text: "late" })).toBe(false);
    undo.undo();
    sync(a, other);
    for (const doc of [a, other]) {
      expect(tree(doc)).toEqual(shape(design()));
      expect(find(doc, "t1")!.content.text).toBe("t1 and more");
    }
    const fresh = new Y.Doc();
    Y.applyUpdate(fresh, Y.encodeStateAsUpdate(other));
    expect(find(fresh, "t1")!.content.text).toBe("t1 and more");
    undo.destroy();
  });

  test("the typist's restore brings back the block with its container, as it is now", () => {
    const { a, b: other } = pair();
    removeBlock(other, "c", "Bob Stone"); // a columns block inside the section, with b1 in it
    removeBlock(other, "k"); // deleted separately: stays deleted
    updateBlock(a, "b1", { text: "typed" });
    sync(a, other);
    expect(restoreBlock(a, "b1")).toBe(true);
    sync(a, other);
    for (const doc of [a, other]) {
      expect(locateBlock(doc, "b1")).toEqual(into("c", 0, 1));
      expect(find(doc, "b1")!.content.text).toBe("typed");
      expect(find(doc, "k")).toBeUndefined();
    }
    expect(restoreBlock(a, "b1")).toBe(false);
  });

  test("a draft stored with plain strings reads; its first edit makes a Y.Text outside the undo history", () => {
    const { a, b: other } = pair();
    a.transact(() => {
      emailBlocks(a).get("t1")!.set("text", "Plain");
      emailMeta(a).set("subject", "Plain subject");
    });
    sync(a, other);
    expect(find(other, "t1")!.content.text).toBe("Plain");
    expect(readEmailDraft(other).meta.subject).toBe("Plain subject");
    const undo = localEmailUndoManager(a);
    updateBlock(a, "t1", { text: "Plain!" });
    sync(a, other);
    updateBlock(other, "t1", { text: "Very Plain!" });
    sync(a, other);
    undo.undo();
    sync(a, other);
    for (const doc of [a, other]) expect(find(doc, "t1")!.content.text).toBe("Very Plain");
    undo.destroy();
  });
});

describe("cloneBlock", () => {
  test("gives fresh ids throughout and copies the content; inserting the copy next to the original works", () => {
    let n = 0;
    const newId = () => `copy${++n}`;
    const section = readBlocks(seeded())[1];
    const copy = cloneBlock(section, newId);
    const ids = allBlocks([copy]).map((x) => x.id);
    expect(ids).toHaveLength(allBlocks([section]).length);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^copy\d+$/);
    const strip = (list: EmailBlock[]) => JSON.stringify(shape(list)).replace(/"[^"]*"/g, "_");
    expect(strip([copy])).toBe(strip([section]));
    expect(allBlocks([copy]).map((x) => [x.type, x.content.text])).toEqual(
      allBlocks([section]).map((x) => [x.type, x.content.text]),
    );
    // the original is untouched
    expect(allBlocks([section]).map((x) => x.id)).toEqual(["s", "t1", "c", "a", "b1", "b2", "c1", "t2"]);
    const doc = seeded();
    expect(insertBlock(doc, copy, canvas(2))).toBe(true);
    expect(readBlocks(doc)[2]).toEqual(copy);
  });
});
