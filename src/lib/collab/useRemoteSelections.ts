import { useEffect, useState } from "react";
import type { Awareness } from "y-protocols/awareness";

export type Teammate = { name: string; color: string };

/**
 * Teammates' selections in a co-edited design, from the document's awareness: each client's
 * `selection` (an element or block id) with its server-given name and colour (PresenceAwareness).
 */
export function useRemoteSelections(awareness: Awareness | null): Map<string, Teammate[]> {
  const [map, setMap] = useState<Map<string, Teammate[]>>(new Map());
  useEffect(() => {
    if (!awareness) return;
    const update = () => {
      const next = new Map<string, Teammate[]>();
      awareness.getStates().forEach((state, clientId) => {
        if (clientId === awareness.clientID) return;
        const sel = (state as { selection?: unknown }).selection;
        const user = (state as { user?: { name?: string; color?: string } }).user;
        if (typeof sel !== "string" || !user?.name) return;
        next.set(sel, [...(next.get(sel) ?? []), { name: user.name, color: user.color ?? "blue" }]);
      });
      setMap(next);
    };
    update();
    awareness.on("change", update);
    return () => awareness.off("change", update);
  }, [awareness]);
  return map;
}
