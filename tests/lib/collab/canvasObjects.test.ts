/**
 * The canvas-object helper (src/lib/collab/canvasObjects.ts), headless: concurrent edits of one
 * object merge per property, the same property resolves to one value on every copy, a deleted
 * object stays deleted, stacking order is by z, and undo takes back only local changes.
 */
import { describe, expect, test } from "vitest";
import * as Y from "yjs";
import {
  addObject,
  localUndoManager,
  observeObjects,
  readObjects,
  removeObject,
  updateObject,
} from "@/lib/collab/canvasObjects";

const REMOTE = "remote";

/** Each copy's updates since `since`, exchanged both ways (what the provider does over Convex). */
function sync(a: Y.Doc, b: Y.Doc) {
  const toB = Y.encodeStateAsUpdate(a, Y.encodeStateVector(b));
  const toA = Y.encodeStateAsUpdate(b, Y.encodeStateVector(a));
  Y.applyUpdate(b, toB, REMOTE);
  Y.applyUpdate(a, toA, REMOTE);
}

function pair() {
  const a = new Y.Doc();
  const b = new Y.Doc();
  addObject(a, "rect", { type: "rect", x: 10, y: 10, fill: "blue", z: 1 });
  sync(a, b);
  return { a, b };
}

describe("canvas objects", () => {
  test("one moves, the other recolours at the same time: both changes stay", () => {
    const { a, b } = pair();
    updateObject(a, "rect", { x: 40, y: 25 });
    updateObject(b, "rect", { fill: "red" });
    sync(a, b);
    const want = [{ id: "rect", type: "rect", x: 40, y: 25, fill: "red", z: 1 }];
    expect(readObjects(a)).toEqual(want);
    expect(readObjects(b)).toEqual(want);
  });

  test("the same property changed at once ends with one value on both copies", () => {
    const { a, b } = pair();
    updateObject(a, "rect", { fill: "green" });
    updateObject(b, "rect", { fill: "red" });
    sync(a, b);
    expect(readObjects(a)).toEqual(readObjects(b));
    expect(["green", "red"]).toContain(readObjects(a)[0].fill);
  });

  test("an unchanged property is not written, so a teammate's concurrent change to it stays", () => {
    const { a, b } = pair();
    // a re-sends the whole object with fill unchanged; b recolours
    updateObject(a, "rect", { x: 11, y: 10, fill: "blue" });
    updateObject(b, "rect", { fill: "red" });
    sync(a, b);
    expect(readObjects(a)[0]).toMatchObject({ x: 11, fill: "red" });
  });

  test("a deleted object stays deleted when someone edits it at the same time; undefined removes a property", () => {
    const { a, b } = pair();
    updateObject(a, "rect", { x: 99 });
    removeObject(b, "rect");
    sync(a, b);
    expect(readObjects(a)).toEqual([]);
    expect(updateObject(a, "rect", { x: 1 })).toBe(false);
    addObject(a, "t", { type: "text", text: "Hi", stroke: "black" });
    updateObject(a, "t", { stroke: undefined });
    expect(readObjects(a)).toEqual([{ id: "t", type: "text", text: "Hi" }]);
  });

  test("objects read back to front by z, then id; observers see local and remote changes", () => {
    const { a, b } = pair();
    let changes = 0;
    const off = observeObjects(b, () => (changes += 1));
    addObject(a, "top", { z: 5 });
    addObject(a, "bottom", { z: 0 });
    addObject(a, "also-bottom", { z: 0 });
    sync(a, b);
    expect(readObjects(b).map((o) => o.id)).toEqual(["also-bottom", "bottom", "rect", "top"]);
    expect(changes).toBe(1);
    updateObject(b, "bottom", { z: 9 });
    expect(changes).toBe(2);
    off();
    expect(readObjects(b).map((o) => o.id)).toEqual(["also-bottom", "rect", "top", "bottom"]);
  });

  test("undo and redo take back only this user's changes", () => {
    const { a, b } = pair();
    const undo = localUndoManager(a, { captureTimeout: 0 });
    updateObject(a, "rect", { x: 50 });
    updateObject(b, "rect", { fill: "red" });
    addObject(b, "logo", { z: 2 });
    sync(a, b);
    undo.undo();
    expect(readObjects(a)).toEqual([
      { id: "rect", type: "rect", x: 10, y: 10, fill: "red", z: 1 },
      { id: "logo", z: 2 },
    ]);
    // nothing of b's to undo on a
    expect(undo.undoStack).toHaveLength(0);
    undo.redo();
    sync(a, b);
    expect(readObjects(b)[0]).toMatchObject({ x: 50, fill: "red" });
  });
});
