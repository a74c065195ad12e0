import { useDraggable } from "@dnd-kit/core";
import { Button, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { BLOCK_LABELS, BLOCK_TYPES, type BlockType } from "@convex/lib/email/blocks";

const ORDER: BlockType[] = Object.keys(BLOCK_LABELS) as BlockType[];

/** The component library: drag a component onto the canvas, or press it (Enter) to add it where the selection is. */
export function ComponentLibrary({ onAdd, disabled }: { onAdd: (type: BlockType) => void; disabled?: boolean }) {
  return (
    <Flex direction="column" gap="2" data-testid="email.library">
      <Heading as="h3" size="2">
        Components
      </Heading>
      <Text size="1" color="gray">
        Drag onto the canvas, or press to add after the selected component.
      </Text>
      <Grid columns="2" gap="2">
        {ORDER.filter((t) => BLOCK_TYPES.includes(t)).map((t) => (
          <LibraryItem key={t} type={t} onAdd={onAdd} disabled={disabled} />
        ))}
      </Grid>
    </Flex>
  );
}

function LibraryItem({
  type,
  onAdd,
  disabled,
}: {
  type: BlockType;
  onAdd: (type: BlockType) => void;
  disabled?: boolean;
}) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: `new:${type}`,
    data: { kind: "new", type },
    disabled,
  });
  // the pointer drags; Enter and Space add (the keyboard alternative), so the keyboard sensor is not attached here
  const { onKeyDown: _keyboardDrag, ...pointer } = (listeners ?? {}) as Record<string, unknown>;
  const { role: _role, "aria-roledescription": _desc, ...attrs } = attributes;
  return (
    <Button
      ref={setNodeRef}
      variant="soft"
      color="gray"
      size="1"
      disabled={disabled}
      data-testid={`email.library.${type}`}
      aria-label={`Add ${BLOCK_LABELS[type]}`}
      style={{ justifyContent: "flex-start", cursor: "grab", opacity: isDragging ? 0.5 : 1, touchAction: "none" }}
      onClick={() => onAdd(type)}
      {...attrs}
      {...pointer}
    >
      {BLOCK_LABELS[type]}
    </Button>
  );
}
