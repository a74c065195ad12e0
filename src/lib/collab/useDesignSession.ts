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
  return { undo: () => manager.undo(), redo: () => manager.redo(), canUndo: !disabled && stacks.undo > 0, canRedo: !disabled && stacks.redo > 0 };
}

/** Shares this user's selection (and whether they are editing) with teammates through the document's awareness. */
export function useShareSelection(awareness: Awareness | null, selectedId: string | null, editing: boolean) {
  useEffect(() => {
    awareness?.setLocalStateField("selection", selectedId);
    awareness?.setLocalStateField("editing", editing);
  }, [awareness, selectedId, editing]);
}
