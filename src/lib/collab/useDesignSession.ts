import { useEffect, useMemo, useState } from "react";
import type { Awareness } from "y-protocols/awareness";
import type * as Y from "yjs";

/**
 * Per-user undo of a co-edited design: the manager `make` builds for `doc` (tracking local origins
 * only, so teammates' changes are never undone), its stack sizes for the toolbar, and Ctrl+Z /
 * Ctrl+Shift+Z outside text fields unless `disabled`.
 */
export function useLocalUndo(doc: Y.Doc, make: (doc: Y.Doc) => Y.UndoManager, disabled: boolean) {
  const manager = useMemo(() => make(doc), [doc, make]);
  const [stacks, setStacks] = useState({ undo: 0, redo: 0 });
  useEffect(() => {
    const update = () => setStacks({ undo: manager.undoStack.length, redo: manager.redoStack.length });
    manager.on("stack-item-added", update);
    manager.on("stack-item-popped", update);
    manager.on("stack-cleared", update);
    return () => manager.destroy();
  }, [manager]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== "z" || disabled) return;
      e.preventDefault();
      if (e.shiftKey) manager.redo();
      else manager.undo();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [manager, disabled]);
  return {
    undo: () => manager.undo(),
    redo: () => manager.redo(),
    canUndo: !disabled && stacks.undo > 0,
    canRedo: !disabled && stacks.redo > 0,
  };
}

/** Shares this user's selection (and whether they are editing) with teammates through the document's awareness. */
export function useShareSelection(awareness: Awareness | null, selectedId: string | null, editing: boolean) {
  useEffect(() => {
    awareness?.setLocalStateField("selection", selectedId);
    awareness?.setLocalStateField("editing", editing);
  }, [awareness, selectedId, editing]);
}

export type LostSelection = { id: string; by: string };

/**
 * The selected element or block disappearing from a co-edited design: the selection is cleared,
 * and when a teammate deleted it (`deletedBy(id)`: their name, "" when unknown, null when it was
 * not deleted, e.g. an undone add), what was lost and by whom, so the page can tell the user and
 * offer Undo. The notice goes when the item comes back (anyone's undo) or is dismissed.
 */
export function useLostSelection(opts: {
  selectedId: string | null;
  present: boolean;
  deletedBy: (id: string) => string | null;
  myName: string | undefined;
  clear: () => void;
}): { lost: LostSelection | null; dismiss: () => void } {
  const { selectedId, present, deletedBy, myName, clear } = opts;
  const [lost, setLost] = useState<LostSelection | null>(null);
  useEffect(() => {
    if (!selectedId || present) return;
    const by = deletedBy(selectedId);
    if (by !== null && (by === "" || by !== myName)) setLost({ id: selectedId, by });
    clear();
  }, [selectedId, present, deletedBy, myName, clear]);
  // restored meanwhile (the teammate's undo, or ours): nothing to tell any more
  const still = lost !== null && deletedBy(lost.id) !== null;
  return { lost: still ? lost : null, dismiss: () => setLost(null) };
}
