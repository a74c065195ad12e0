import { liveQuery } from "dexie";
import { createContext, useContext, useEffect, useState } from "react";
import { canvassStore, type CanvassStore } from "../utils/store";

/** The field app's local store; tests give each render its own (a fresh database). */
export const CanvassStoreContext = createContext<CanvassStore | null>(null);

export function useCanvassStore(): CanvassStore {
  return useContext(CanvassStoreContext) ?? canvassStore();
}

/**
 * A read of the local store, kept current: it runs again whenever what it read changes (Dexie's
 * liveQuery: another tab's writes included). Undefined until the first answer for these `deps`.
 */
export function useLocalCopy<T>(read: (store: CanvassStore) => Promise<T>, deps: readonly unknown[]): T | undefined {
  const store = useCanvassStore();
  const key = JSON.stringify(deps);
  const [value, setValue] = useState<{ key: string; value: T } | null>(null);
  useEffect(() => {
    const sub = liveQuery(() => read(store)).subscribe({
      next: (v) => setValue({ key, value: v }),
      error: () => undefined,
    });
    return () => sub.unsubscribe();
    // `read` is a new function each render; what it reads is named by `deps`
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, key]);
  return value && value.key === key ? value.value : undefined;
}
