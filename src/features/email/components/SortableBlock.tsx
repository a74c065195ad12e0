import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ArrowDownIcon, ArrowUpIcon, ChevronDownIcon, DragHandleDots2Icon } from "@radix-ui/react-icons";
import { Button, DropdownMenu, Flex, IconButton, Text } from "@radix-ui/themes";
import type { KeyboardEvent, MouseEvent } from "react";
import { BLOCK_LABELS, type EmailBlock } from "@convex/lib/email/blocks";
import { listBlocks, moveDestinations, placements } from "../utils/placement";
import { BlockView } from "./BlockView";
import { useCanvas } from "./canvasContext";

/** A block on the canvas: click to select; drag by its handle (pointer, or Space and the arrow keys); or move it with its toolbar. */
export function SortableBlock({ block }: { block: EmailBlock }) {
  const canvas = useCanvas();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: block.id,
    data: { kind: "block", type: block.type },
    disabled: canvas.readOnly,
  });
  const selected = canvas.selectedId === block.id;
  const teammates = canvas.remote.get(block.id) ?? [];
  const label = BLOCK_LABELS[block.type];

  const select = (e: MouseEvent | KeyboardEvent) => {
    e.stopPropagation();
    canvas.select(block.id);
  };
  const outline = selected
    ? "2px solid var(--accent-9)"
    : teammates.length
      ? `2px solid var(--${teammates[0].color}-9)`
      : undefined;

  return (
    <div
      ref={setNodeRef}
      role="listitem"
      className="email-block"
      data-testid={`email.block.${block.type}`}
      data-block-id={block.id}
      data-selected={selected || undefined}
      // the selected block's toolbar gets a strip of its own above the content: it covers none of it
      style={{
        position: "relative",
        transform: CSS.Translate.toString(transform),
        transition,
        opacity: isDragging ? 0.4 : 1,
        outline,
        outlineOffset: -1,
        paddingTop: selected && !canvas.readOnly ? 34 : undefined,
      }}
      onClick={select}
    >
      {teammates.length > 0 && (
        <Text
          size="1"
          data-testid="email.remoteSelection"
          style={{
            position: "absolute",
            top: -18,
            right: 0,
            background: `var(--${teammates[0].color}-9)`,
            color: "white",
            padding: "0 6px",
            borderRadius: 3,
            zIndex: 2,
          }}
        >
          {teammates.map((t) => t.name).join(", ")}
        </Text>
      )}
      {!canvas.readOnly && (
        <Flex
          className="email-block-tools"
          gap="1"
          align="center"
          style={{
            position: "absolute",
            top: 2,
            left: 2,
            zIndex: 3,
            background: selected ? "var(--color-panel-solid)" : undefined,
            borderRadius: "var(--radius-2)",
            padding: selected ? 2 : 0,
          }}
        >
          <IconButton
            ref={setActivatorNodeRef}
            size="1"
            variant={selected ? "solid" : "soft"}
            color="gray"
            aria-label={`Drag ${label} block (Space to pick up, arrow keys to move, Space to drop)`}
            data-testid="email.block.handle"
            style={{ cursor: "grab", touchAction: "none" }}
            onFocus={() => canvas.select(block.id)}
            {...attributes}
            {...listeners}
          >
            <DragHandleDots2Icon />
          </IconButton>
          {selected && <MoveToolbar block={block} />}
        </Flex>
      )}
      <BlockView block={block} />
    </div>
  );
}

/** The keyboard alternative to every drag: up, down, and into any container that accepts the block. */
function MoveToolbar({ block }: { block: EmailBlock }) {
  const canvas = useCanvas();
  const p = placements(canvas.blocks).get(block.id);
  if (!p) return null;
  const siblings = listBlocks(canvas.blocks, p.parentId, p.slot);
  const destinations = moveDestinations(canvas.blocks, block.id);
  const stop = (e: MouseEvent) => e.stopPropagation();
  return (
    <Flex gap="1" onClick={stop}>
      <IconButton
        size="1"
        variant="soft"
        aria-label="Move up"
        data-testid="email.block.up"
        disabled={p.index === 0}
        onClick={() => canvas.move(block.id, { parentId: p.parentId, slot: p.slot, index: p.index - 1 })}
      >
        <ArrowUpIcon />
      </IconButton>
      <IconButton
        size="1"
        variant="soft"
        aria-label="Move down"
        data-testid="email.block.down"
        disabled={p.index >= siblings.length - 1}
        onClick={() => canvas.move(block.id, { parentId: p.parentId, slot: p.slot, index: p.index + 1 })}
      >
        <ArrowDownIcon />
      </IconButton>
      {destinations.length > 0 && (
        <DropdownMenu.Root>
          <DropdownMenu.Trigger>
            <Button size="1" variant="soft" data-testid="email.block.moveTo">
              Move to… <ChevronDownIcon />
            </Button>
          </DropdownMenu.Trigger>
          <DropdownMenu.Content>
            {destinations.map((d) => (
              <DropdownMenu.Item key={d.label} onSelect={() => canvas.move(block.id, d.target)}>
                {d.label}
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Root>
      )}
    </Flex>
  );
}
