import { useMutation, useQuery } from "convex/react";
import type { FunctionArgs } from "convex/server";
import { useCallback } from "react";
import { api } from "@convex/_generated/api";
import { toast } from "@/ui/toast";

export type PreferencesChange = FunctionArgs<typeof api.preferences.update>;

/** The signed-in user's own settings (live) and a save per change, with the toast. */
export function usePreferences() {
  const preferences = useQuery(api.preferences.mine, {});
  const update = useMutation(api.preferences.update).withOptimisticUpdate((store, change) => {
    const current = store.getQuery(api.preferences.mine, {});
    if (!current) return;
    store.setQuery(
      api.preferences.mine,
      {},
      {
        timeZone: change.timeZone !== undefined ? change.timeZone : current.timeZone,
        defaultMode: change.defaultMode !== undefined ? change.defaultMode : current.defaultMode,
        notifications: {
          ...current.notifications,
          ...Object.fromEntries(Object.entries(change.notifications ?? {}).filter(([, on]) => on !== undefined)),
        },
      },
    );
  });
  const save = useCallback(
    async (change: PreferencesChange) => {
      try {
        await update(change);
        toast.success("Settings saved");
      } catch (e) {
        toast.failure("Settings not saved", e);
      }
    },
    [update],
  );
  return { preferences, save };
}
