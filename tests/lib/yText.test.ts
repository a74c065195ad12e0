/**
 * Text in co-edited documents (convex/lib/yText.ts): the one change between two values (surrogate
 * pairs kept whole), a caret carried across a teammate's change, applying a new value as that change
 * only, and legacy plain strings turned into Y.Text outside the undo history.
 */
import { describe, expect, test } from "vitest";
import * as Y from "yjs";
import { TEXT_UPGRADE, applyText, mapPosition, setText, textDiff, textOf, upgradeTexts } from "@convex/lib/yText";

describe("textDiff and mapPosition", () => {
  test("the one change: an insert, a delete, a replacement, nothing", () => {
    expect(textDiff("Vote", "Vote today")).toEqual({ at: 4, remove: 0, insert: " today" });
    expect(textDiff("Vote today", "Vote")).toEqual({ at: 4, remove: 6, insert: "" });
    expect(textDiff("Vote now", "Vote today")).toEqual({ at: 5, remove: 3, insert: "today" });
    expect(textDiff("aaa", "aaaa")).toEqual({ at: 3, remove: 0, insert: "a" });
    expect(textDiff("same", "same")).toEqual({ at: 4, remove: 0, insert: "" });
  });

  test("a surrogate pair is never split", () => {
    const d = textDiff("a😀b", "a😃b");
    expect(d).toEqual({ at: 1, remove: 2, insert: "😃" });
    const e = textDiff("😀x", "😃x");
    expect(e).toEqual({ at: 0, remove: 2, insert: "😃" });
  });

  test("a caret keeps its place beside the text it was next to", () => {
    // Bob typed "Please " before Alice's caret at the end of "Vote"
    expect(mapPosition("Vote", "Please Vote", 4)).toBe(11);
    // typed after the caret: it stays
    expect(mapPosition("Vote", "Vote today", 2)).toBe(2);
    // the text around the caret deleted: it goes to where the change ends
    expect(mapPosition("Vote now", "Vote", 6)).toBe(4);
  });
});

describe("applyText, setText, upgradeTexts", () => {
  test("only the difference is written, so a teammate's concurrent typing stays", () => {
    const a = new Y.Doc();
    const m = a.getMap<unknown>("m");
    m.set("t", new Y.Text("Vote"));
    const b = new Y.Doc();
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    applyText(m.get("t") as Y.Text, "Vote today");
    setText(b.getMap<unknown>("m"), "t", "Please Vote");
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
    expect(textOf(m.get("t"))).toBe("Please Vote today");
    expect(textOf(b.getMap("m").get("t"))).toBe("Please Vote today");
  });

  test("a legacy string becomes a Y.Text in a transaction of its own origin; an undo manager of local changes ignores it", () => {
    const doc = new Y.Doc();
    const m = doc.getMap<unknown>("m");
    m.set("t", "Old");
    m.set("n", null);
    const undo = new Y.UndoManager(m, { trackedOrigins: new Set([null]) });
    const origins: unknown[] = [];
    doc.on("afterTransaction", (tr: Y.Transaction) => origins.push(tr.origin));
    upgradeTexts(doc, m, ["t", "n", "missing"]);
    expect(origins).toEqual([TEXT_UPGRADE]);
    expect(m.get("t")).toBeInstanceOf(Y.Text);
    expect([textOf(m.get("t")), textOf(m.get("n")), textOf(m.get("missing"))]).toEqual(["Old", "", ""]);
    expect(undo.undoStack).toHaveLength(0);
    upgradeTexts(doc, m, ["t"]);
    expect(origins).toHaveLength(1);
    undo.destroy();
  });
});
