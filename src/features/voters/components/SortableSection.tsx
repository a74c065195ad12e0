import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { DragHandleDots2Icon } from "@radix-ui/react-icons";
import { Card, Flex, Grid, Heading, IconButton } from "@radix-ui/themes";
import type { ReactNode } from "react";

type SortableSectionProps = {
  id: string;
  title: string;
  children: ReactNode;
  /** offers the drag handle (voters.manage: the order is organisation-wide) */ draggable: boolean;
};

/** A form section that can be dragged by its handle (mouse, touch or keyboard) when `draggable`. */
export function SortableSection({ id, title, children, draggable }: SortableSectionProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled: !draggable,
  });
  return (
    <Card
      ref={setNodeRef}
      data-testid={`voters.form.section.${id}`}
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1 }}
    >
      <Flex align="center" gap="2" mb="3">
        {draggable && (
          <IconButton
            ref={setActivatorNodeRef}
            variant="ghost"
            color="gray"
            aria-label={`Drag to reorder ${title}`}
            {...attributes}
            {...listeners}
            type="button"
          >
            <DragHandleDots2Icon />
          </IconButton>
        )}
        <Heading size="3" as="h2">
          {title}
        </Heading>
      </Flex>
      <Grid columns={{ initial: "1", sm: "2" }} gap="3">
        {children}
      </Grid>
    </Card>
  );
}
