import { createContext, useContext } from "react";
import type { EmailBlock } from "@convex/lib/email/blocks";
import type { BlockTarget } from "@convex/lib/email/draft";

import type { Teammate } from "@/lib/collab/useRemoteSelections";

export type { Teammate };

/** What every block on the canvas needs: selection (own and teammates'), and the keyboard moves. */
export type CanvasState = {
  blocks: EmailBlock[];
  selectedId: string | null;
  select: (id: string | null) => void;
  /** teammates' selections by block id */
  remote: Map<string, Teammate[]>;
  readOnly: boolean;
  move: (id: string, target: BlockTarget) => void;
  /** a refused drop: the reason is announced */
  dropRefused: string | null;
};

export const CanvasContext = createContext<CanvasState | null>(null);

export function useCanvas(): CanvasState {
  const c = useContext(CanvasContext);
  if (!c) throw new Error("useCanvas outside the email canvas");
  return c;
}
