import { useLayoutEffect, useRef } from "react";
import { mapPosition } from "@convex/lib/yText";

type Field = HTMLInputElement | HTMLTextAreaElement;
type Snapshot = { text: string; start: number; end: number; direction: "forward" | "backward" | "none" | null };

/**
 * A text field bound to co-edited text (a Y.Text read as `value`) keeps its caret beside the text
 * it was next to when a teammate's typing arrives: the browser would otherwise put it at the end
 * (or leave it at the same offset, now inside their words), and the user's next keystroke would
 * land in the wrong place. Attach the returned ref to the input or textarea:
 *
 *   const ref = useKeepCaret<HTMLTextAreaElement>(text);
 *   <TextArea ref={ref} value={text} onChange={(e) => setText(e.target.value)} />
 */
export function useKeepCaret<T extends Field>(value: string) {
  const ref = useRef<T>(null);
  const before = useRef<Snapshot | null>(null);
  // During render, before React puts the new value in: the field as the user left it. Only a
  // focused field whose content differs from the new value (a change from elsewhere) needs it;
  // the user's own typing is already in the field.
  const el = ref.current;
  before.current =
    el && typeof document !== "undefined" && document.activeElement === el && el.value !== value
      ? { text: el.value, start: el.selectionStart ?? 0, end: el.selectionEnd ?? 0, direction: el.selectionDirection }
      : null;
  useLayoutEffect(() => {
    const b = before.current;
    const field = ref.current;
    before.current = null;
    if (!b || !field || field.value !== value || document.activeElement !== field || field.selectionStart === null)
      return;
    field.setSelectionRange(
      mapPosition(b.text, value, b.start),
      mapPosition(b.text, value, b.end),
      b.direction ?? undefined,
    );
  }, [value]);
  return ref;
}
