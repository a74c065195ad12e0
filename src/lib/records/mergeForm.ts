/**
 * An edit form over a shared record (DESIGN.md §5), as pure state. `base` holds, per field, the
 * saved value the user's edit starts from; a field is touched when its value differs from its
 * base. When a teammate's save arrives: untouched fields take the new value in place, a touched
 * field that now differs from its base becomes a conflict the user settles ("keep mine" rebases
 * onto the teammate's value, "take theirs" drops the user's change). Saving sends only touched
 * fields, each with its base, so the server can merge or refuse (convex/model/collab.ts).
 */
export type FormValues = Record<string, string>;

export type MergeState = {
  values: FormValues;
  base: FormValues;
  /** field → the teammate's saved value the user has not settled yet */
  conflicts: Record<string, string>;
};

export function initialMergeState(saved: FormValues): MergeState {
  return { values: { ...saved }, base: { ...saved }, conflicts: {} };
}

const at = (v: FormValues, k: string) => v[k] ?? "";

/** Brings a newer saved version in: updates untouched fields, flags touched ones that changed. */
export function rebase(state: MergeState, saved: FormValues): MergeState {
  const values = { ...state.values };
  const base = { ...state.base };
  const conflicts = { ...state.conflicts };
  const keys = new Set([...Object.keys(saved), ...Object.keys(state.base), ...Object.keys(state.values)]);
  for (const k of keys) {
    const theirs = at(saved, k);
    const mine = at(values, k);
    const from = at(base, k);
    if (theirs === from) {
      // nothing new from teammates; a conflict on this field was settled by a save
      if (conflicts[k] !== undefined && mine === from) delete conflicts[k];
      continue;
    }
    if (mine === from) {
      values[k] = theirs;
      base[k] = theirs;
      delete conflicts[k];
    } else if (mine === theirs) {
      base[k] = theirs;
      delete conflicts[k];
    } else {
      conflicts[k] = theirs;
    }
  }
  return { values, base, conflicts };
}

export function setValue(state: MergeState, key: string, value: string): MergeState {
  return { ...state, values: { ...state.values, [key]: value } };
}

/** Keep my value: my edit now starts from the teammate's value (saving overwrites it knowingly). */
export function keepMine(state: MergeState, key: string): MergeState {
  const theirs = state.conflicts[key];
  if (theirs === undefined) return state;
  const conflicts = { ...state.conflicts };
  delete conflicts[key];
  return { ...state, base: { ...state.base, [key]: theirs }, conflicts };
}

/** Take their value: drop my change to this field. */
export function takeTheirs(state: MergeState, key: string): MergeState {
  const theirs = state.conflicts[key];
  if (theirs === undefined) return state;
  const conflicts = { ...state.conflicts };
  delete conflicts[key];
  return { values: { ...state.values, [key]: theirs }, base: { ...state.base, [key]: theirs }, conflicts };
}

/** Fields the user changed, with the base they started from. */
export function touchedFields(state: MergeState): string[] {
  const keys = new Set([...Object.keys(state.values), ...Object.keys(state.base)]);
  return [...keys].filter((k) => at(state.values, k) !== at(state.base, k));
}

/** Conflicts reported by a refused save (server values as form strings) become inline conflicts. */
export function withConflicts(state: MergeState, theirs: Record<string, string>): MergeState {
  return { ...state, conflicts: { ...state.conflicts, ...theirs } };
}

export type StoredValue = string | number | boolean | null | string[];
export type FieldEdit = { field: string; base: StoredValue; value: StoredValue };

/** The save's edits: touched fields converted to stored values (`toStored(field, formString)`). */
export function editsOf(state: MergeState, toStored: (field: string, value: string) => StoredValue): FieldEdit[] {
  return touchedFields(state).map((k) => ({
    field: k,
    base: toStored(k, at(state.base, k)),
    value: toStored(k, at(state.values, k)),
  }));
}
