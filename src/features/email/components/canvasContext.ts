import { createContext, useContext, type ComponentType, type CSSProperties, type ReactNode } from "react";
import type { BlockType, EmailBlock } from "@convex/lib/email/blocks";
import type { BlockTarget } from "@convex/lib/email/draft";
import type { Teammate } from "@/lib/collab/useRemoteSelections";

export type BlockListProps = {
  blocks: EmailBlock[];
  parentId: string | null;
  parentType: BlockType | null;
  slot: number;
  empty: ReactNode;
  style?: CSSProperties;
  label: string;
};

/** What every block on the canvas needs: selection (own and teammates'), and the keyboard moves. */
export type CanvasState = {
  /** the list component (given here so that containers can hold lists without an import cycle) */
  List: ComponentType<BlockListProps>;
  blocks: EmailBlock[];
  selectedId: string | null;
  select: (id: string | null) => void;
  /** teammates' selections by block id */
  remote: Map<string, Teammate[]>;
  readOnly: boolean;
  move: (id: string, target: BlockTarget) => void;
};

export const CanvasContext = createContext<CanvasState | null>(null);

export function useCanvas(): CanvasState {
  const c = useContext(CanvasContext);
  if (!c) throw new Error("useCanvas outside the email canvas");
  return c;
}
