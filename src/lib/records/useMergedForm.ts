/**
 * React state for an edit form over a shared record (mergeForm.ts): starts from the first saved
 * version of `recordKey`, then folds every newer saved version in live.
 */
import { useCallback, useEffect, useState } from "react";
import {
  initialMergeState,
  keepMine,
  rebase,
  setValue,
  takeTheirs,
  touchedFields,
  withConflicts,
  type FormValues,
  type MergeState,
} from "./mergeForm";

export function useMergedForm(recordKey: string | null, saved: FormValues | undefined) {
  const [state, setState] = useState<{ key: string | null; form: MergeState } | null>(null);
  const savedJson = saved === undefined ? undefined : JSON.stringify(saved);

  useEffect(() => {
    if (savedJson === undefined) return;
    const next: FormValues = JSON.parse(savedJson);
    setState((s) =>
      s === null || s.key !== recordKey
        ? { key: recordKey, form: initialMergeState(next) }
        : { key: recordKey, form: rebase(s.form, next) },
    );
  }, [recordKey, savedJson]);

  const update = useCallback(
    (f: (m: MergeState) => MergeState) => setState((s) => (s ? { ...s, form: f(s.form) } : s)),
    [],
  );
  const form = state && state.key === recordKey ? state.form : null;
  return {
    /** null until the record's first version arrived */
    form,
    setField: useCallback((k: string, v: string) => update((m) => setValue(m, k, v)), [update]),
    keepMine: useCallback((k: string) => update((m) => keepMine(m, k)), [update]),
    takeTheirs: useCallback((k: string) => update((m) => takeTheirs(m, k)), [update]),
    addConflicts: useCallback((theirs: Record<string, string>) => update((m) => withConflicts(m, theirs)), [update]),
    reset: useCallback(() => update((m) => ({ values: { ...m.base }, base: m.base, conflicts: {} })), [update]),
    touched: form ? touchedFields(form) : [],
  };
}
