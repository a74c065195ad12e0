import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { DragHandleDots2Icon, TrashIcon } from "@radix-ui/react-icons";
import { Badge, Card, Flex, Grid, IconButton, Switch, Text, TextArea } from "@radix-ui/themes";
import { FIELD_TYPE_LABELS, takesOptions, type FormField } from "@convex/lib/forms/rules";
import { CollabTextField } from "@/ui/CollabText";

type FieldRowProps = {
  field: FormField;
  index: number;
  onChange: (patch: Partial<Omit<FormField, "id">>) => void;
  onRemove: () => void;
};

/** One field of the builder: drag handle (mouse, touch or keyboard), type, label, required, placeholder, options. */
export function FieldRow({ field, index, onChange, onRemove }: FieldRowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: field.id,
  });
  const name = field.type === "separator" ? "separator" : field.label || `field ${index + 1}`;
  const id = `builder-${field.id}`;
  return (
    <Card
      ref={setNodeRef}
      data-testid={`builder.field.${index}`}
      data-field-id={field.id}
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1 }}
    >
      <Flex align="center" gap="2" mb={field.type === "separator" ? "0" : "3"}>
        <IconButton
          ref={setActivatorNodeRef}
          variant="ghost"
          color="gray"
          type="button"
          aria-label={`Drag to reorder ${name}`}
          {...attributes}
          {...listeners}
        >
          <DragHandleDots2Icon />
        </IconButton>
        <Badge color={field.type === "separator" ? "gray" : "blue"}>{FIELD_TYPE_LABELS[field.type]}</Badge>
        {field.type === "separator" && (
          <Text size="2" color="gray" style={{ flex: 1 }}>
            Separator fields cannot be edited.
          </Text>
        )}
        <Flex ml="auto">
          <IconButton variant="ghost" color="red" type="button" aria-label={`Remove ${name}`} onClick={onRemove}>
            <TrashIcon />
          </IconButton>
        </Flex>
      </Flex>
      {field.type !== "separator" && (
        <Grid columns={{ initial: "1", sm: "2" }} gap="3">
          <label>
            <Text size="2" weight="medium">
              Label
            </Text>
            <CollabTextField
              id={`${id}-label`}
              value={field.label}
              maxLength={200}
              onChange={(e) => onChange({ label: e.target.value })}
              data-testid={`builder.label.${index}`}
            />
          </label>
          {field.type !== "checkbox" && field.type !== "radio" && (
            <label>
              <Text size="2" weight="medium">
                Placeholder
              </Text>
              <CollabTextField
                value={field.placeholder ?? ""}
                maxLength={200}
                onChange={(e) => onChange({ placeholder: e.target.value === "" ? null : e.target.value })}
              />
            </label>
          )}
          {takesOptions(field.type) && (
            <label style={{ gridColumn: "1 / -1" }}>
              <Text size="2" weight="medium">
                Options (one per line)
              </Text>
              <TextArea
                value={field.options.join("\n")}
                onChange={(e) => onChange({ options: e.target.value.split("\n").slice(0, 60) })}
                data-testid={`builder.options.${index}`}
              />
            </label>
          )}
          <Text as="label" size="2">
            <Flex gap="2" align="center">
              <Switch
                checked={field.required}
                onCheckedChange={(c) => onChange({ required: c })}
                data-testid={`builder.required.${index}`}
              />
              Required
            </Flex>
          </Text>
        </Grid>
      )}
    </Card>
  );
}
