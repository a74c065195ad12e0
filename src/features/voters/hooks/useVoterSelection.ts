import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";

/**
 * The list's bulk selection: voters ticked one by one, or "all matching" the filter it was chosen
 * under (changing the filter drops it, so it never silently covers a different set).
 */
export function useVoterSelection(filterKey: string) {
  const [selected, setSelected] = useState<Set<Id<"voters">>>(new Set());
  const [allMatchingFor, setAllMatchingFor] = useState<string | null>(null);
  const allMatching = allMatchingFor === filterKey;

  const toggle = (id: Id<"voters">) => {
    setAllMatchingFor(null);
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  };
  /** Ticks every listed voter, or clears them when all are ticked already. */
  const togglePage = (ids: Id<"voters">[]) => {
    setAllMatchingFor(null);
    setSelected((prev) => {
      const every = ids.length > 0 && ids.every((id) => prev.has(id));
      const next = new Set(prev);
      for (const id of ids) {
        if (every) next.delete(id);
        else next.add(id);
      }
      return next;
    });
  };
  const selectAllMatching = () => setAllMatchingFor(filterKey);
  const clear = () => {
    setAllMatchingFor(null);
    setSelected(new Set());
  };
  return { selected, allMatching, toggle, togglePage, selectAllMatching, clear, any: allMatching || selected.size > 0 };
}
