import { useDroppable } from "@dnd-kit/core";
import { SortableContext, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { Text } from "@radix-ui/themes";
import { listId } from "../utils/placement";
import type { BlockListProps } from "./canvasContext";
import { SortableBlock } from "./SortableBlock";

/** One list of blocks (the canvas, a container, a column): sortable, and a drop zone for its end. */
export function BlockList({ blocks, parentId, parentType, slot, empty, style, label }: BlockListProps) {
  const id = listId(parentId, slot);
  const { setNodeRef, isOver } = useDroppable({ id, data: { kind: "list", parentId, parentType, slot } });
  return (
    <SortableContext id={id} items={blocks.map((b) => b.id)} strategy={verticalListSortingStrategy}>
      <div
        ref={setNodeRef}
        role={blocks.length ? "list" : "group"}
        aria-label={label}
        data-testid={`email.list.${parentId ?? "root"}.${slot}`}
        style={{
          minHeight: parentId ? 48 : 120,
          outline: isOver ? "2px dashed var(--accent-8)" : undefined,
          outlineOffset: -2,
          ...style,
        }}
      >
        {blocks.length === 0 ? (
          <Text
            as="div"
            size="1"
            color="gray"
            align="center"
            style={{ padding: 12, border: "1px dashed var(--gray-7)", borderRadius: 4 }}
          >
            {empty}
          </Text>
        ) : (
          blocks.map((b) => <SortableBlock key={b.id} block={b} />)
        )}
      </div>
    </SortableContext>
  );
}
