/**
 * Canvas objects (CTA and email designers) stored in a Yjs document so that concurrent edits
 * merge per property, not per object: the document holds one `Y.Map` of objects by id, and each
 * object is its own `Y.Map` of properties. Two people moving and recolouring the same element
 * keep both changes; only the same property changed at once resolves to one value (Yjs orders
 * concurrent writes the same way on every client).
 *
 * The unit of merge is one property: keep what people change independently in separate
 * properties (`x` and `y`, `fill`, `text`), never in one nested object value. Stacking order is
 * the `z` property (a number; ties by id), so reordering is one property change too.
 *
 *   addObject(doc, "rect-1", { type: "rect", x: 10, y: 10, fill: "blue", z: 1 });
 *   updateObject(doc, "rect-1", { x: 40, y: 25 });       // someone else: { fill: "red" }
 *   readObjects(doc);                                      // [{ id: "rect-1", x: 40, y: 25, fill: "red", … }]
 *   const undo = localUndoManager(doc);                    // undoes this user's changes only
 */
import * as Y from "yjs";

export type CanvasValue = string | number | boolean | null | CanvasValue[] | { [k: string]: CanvasValue };
export type CanvasProps = Record<string, CanvasValue>;
export type CanvasObject = CanvasProps & { id: string };

const OBJECTS = "canvasObjects";

/** The shared map of objects by id (created on first use). */
function canvasObjects(doc: Y.Doc): Y.Map<Y.Map<CanvasValue>> {
  return doc.getMap<Y.Map<CanvasValue>>(OBJECTS);
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Adds an object (ids are unique, e.g. crypto.randomUUID()); replaces one with the same id. */
export function addObject(doc: Y.Doc, id: string, props: CanvasProps) {
  doc.transact(() => {
    const obj = new Y.Map<CanvasValue>();
    for (const [k, v] of Object.entries(props)) obj.set(k, v);
    canvasObjects(doc).set(id, obj);
  });
}

/**
 * Sets the given properties (undefined removes one); properties not given, and those already
 * holding the value, are not written, so they stay whatever teammates set. False when the object
 * is gone (deleted by someone).
 */
export function updateObject(doc: Y.Doc, id: string, patch: Record<string, CanvasValue | undefined>): boolean {
  const obj = canvasObjects(doc).get(id);
  if (!obj) return false;
  doc.transact(() => {
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) {
        if (obj.has(k)) obj.delete(k);
      } else if (!same(obj.get(k), v)) obj.set(k, v);
    }
  });
  return true;
}

export function removeObject(doc: Y.Doc, id: string) {
  const objects = canvasObjects(doc);
  if (objects.has(id)) objects.delete(id);
}

/** The objects as plain values, back to front (by `z`, then id). */
export function readObjects(doc: Y.Doc): CanvasObject[] {
  const out: CanvasObject[] = [];
  canvasObjects(doc).forEach((obj, id) => out.push({ ...obj.toJSON(), id }));
  const z = (o: CanvasObject) => (typeof o.z === "number" ? o.z : 0);
  return out.sort((a, b) => z(a) - z(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Calls `cb` after any change to any object (local or a teammate's); returns unsubscribe. */
export function observeObjects(doc: Y.Doc, cb: () => void): () => void {
  const objects = canvasObjects(doc);
  const handler = () => cb();
  objects.observeDeep(handler);
  return () => objects.unobserveDeep(handler);
}

/**
 * Undo/redo of this user's own changes to the objects: only local transactions (origin null, what
 * the helpers above make) are tracked; updates the provider applies from teammates carry the
 * provider as origin and are never undone here.
 */
export function localUndoManager(doc: Y.Doc, opts: { captureTimeout?: number } = {}): Y.UndoManager {
  return new Y.UndoManager(canvasObjects(doc), {
    trackedOrigins: new Set([null]),
    captureTimeout: opts.captureTimeout ?? 500,
  });
}
