import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { ArrowLeftIcon, PlusIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Card, Flex, Grid, Heading, Select, Text } from "@radix-ui/themes";
import { useState } from "react";
import type * as Y from "yjs";
import {
  addDraftField,
  draftMatches,
  moveDraftField,
  removeDraftField,
  setDraftMeta,
  updateDraftField,
} from "@convex/lib/forms/draft";
import {
  FIELD_TYPE_LABELS,
  FORM_FIELD_TYPES,
  newFieldId,
  takesOptions,
  type FormFieldType,
} from "@convex/lib/forms/rules";
import { useRoomPresence } from "@/lib/presence/useRoomPresence";
import { useViewer } from "@/session/ViewerProvider";
import { CollabTextArea, CollabTextField } from "@/ui/CollabText";
import { PresenceAvatars } from "@/ui/PresenceAvatars";
import { useFormDraft } from "../hooks/useFormDraft";
import type { FormRow } from "../hooks/useForms";
import { FieldRow } from "./FieldRow";
import { FormRenderer } from "./FormRenderer";

const ADDABLE = FORM_FIELD_TYPES.filter((t) => t !== "separator");

type FormEditorProps = {
  doc: Y.Doc;
  /** the published form (edit mode); null while creating */
  form: FormRow | null;
  /** co-edited: the Yjs room, for who else is here */
  room: string | null;
  saving: boolean;
  onSave: () => void;
  onBack: () => void;
};

/** The builder's editor: name, description, fields (drag to reorder), Add Field / Add Separator, live preview. */
export function FormEditor({ doc, form, room, saving, onSave, onBack }: FormEditorProps) {
  const draft = useFormDraft(doc);
  const { me } = useViewer();
  const [newType, setNewType] = useState<FormFieldType>("text");
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const { present } = useRoomPresence(room);
  const others = (present ?? []).filter((p) => p.userId !== me?.userId);

  const unsaved = form !== null && !draftMatches(draft, form);

  const addField = (type: FormFieldType) => {
    addDraftField(doc, {
      id: newFieldId(type),
      type,
      label: type === "separator" ? "" : FIELD_TYPE_LABELS[type],
      required: false,
      placeholder: null,
      options: takesOptions(type) ? ["Option 1", "Option 2"] : [],
    });
  };
  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const to = draft.fields.findIndex((f) => f.id === over.id);
    if (to >= 0) moveDraftField(doc, String(active.id), to);
  };

  return (
    <Box>
      <Flex justify="between" align="center" gap="3" wrap="wrap" mb="4">
        <Button variant="soft" color="gray" onClick={onBack}>
          <ArrowLeftIcon /> Back to Forms
        </Button>
        <Flex gap="3" align="center" wrap="wrap">
          {room && <PresenceAvatars people={others} label="editing" />}
          {unsaved && (
            <Badge color="orange" data-testid="builder.unsaved">
              Unpublished changes
            </Badge>
          )}
          <Button onClick={onSave} loading={saving} data-testid="builder.save">
            {form ? "Update Form" : "Save Form"}
          </Button>
        </Flex>
      </Flex>
      <Grid columns={{ initial: "1", md: "2" }} gap="4">
        <Flex direction="column" gap="3">
          <Card>
            <Flex direction="column" gap="3">
              <label>
                <Text size="2" weight="medium">
                  Form name{" "}
                  <Text color="red" aria-hidden>
                    *
                  </Text>
                </Text>
                <CollabTextField
                  value={draft.name}
                  maxLength={200}
                  onChange={(e) => setDraftMeta(doc, "name", e.target.value)}
                  placeholder="e.g. Volunteer signup"
                  data-testid="builder.name"
                />
              </label>
              <label>
                <Text size="2" weight="medium">
                  Description
                </Text>
                <CollabTextArea
                  value={draft.description}
                  maxLength={2000}
                  onChange={(e) => setDraftMeta(doc, "description", e.target.value)}
                  data-testid="builder.description"
                />
              </label>
            </Flex>
          </Card>
          <Heading as="h2" size="3">
            Fields
          </Heading>
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={handleDragEnd}>
            <SortableContext items={draft.fields.map((f) => f.id)} strategy={verticalListSortingStrategy}>
              <Flex direction="column" gap="2" data-testid="builder.fields">
                {draft.fields.map((f, i) => (
                  <FieldRow
                    key={f.id}
                    field={f}
                    index={i}
                    onChange={(patch) => updateDraftField(doc, f.id, patch)}
                    onRemove={() => removeDraftField(doc, f.id)}
                  />
                ))}
              </Flex>
            </SortableContext>
          </DndContext>
          <Flex gap="2" wrap="wrap" align="center">
            <Select.Root value={newType} onValueChange={(v) => setNewType(v as FormFieldType)}>
              <Select.Trigger aria-label="Field type" data-testid="builder.newType" />
              <Select.Content>
                {ADDABLE.map((t) => (
                  <Select.Item key={t} value={t}>
                    {FIELD_TYPE_LABELS[t]}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
            <Button variant="soft" onClick={() => addField(newType)} data-testid="builder.addField">
              <PlusIcon /> Add Field
            </Button>
            <Button
              variant="soft"
              color="gray"
              onClick={() => addField("separator")}
              data-testid="builder.addSeparator"
            >
              <PlusIcon /> Add Separator
            </Button>
          </Flex>
        </Flex>
        <Card
          style={{
            position: "sticky",
            top: 16,
            alignSelf: "start",
            maxHeight: "calc(100vh - 32px)",
            overflowY: "auto",
          }}
        >
          <Heading as="h2" size="3" mb="3">
            Form Preview
          </Heading>
          <Heading as="h3" size="5">
            {draft.name || "Untitled form"}
          </Heading>
          {draft.description && (
            <Text as="p" color="gray" size="2" mb="3">
              {draft.description}
            </Text>
          )}
          {draft.fields.length === 0 ? (
            <Text color="gray" size="2" data-testid="builder.previewEmpty">
              This form has no fields to display.
            </Text>
          ) : (
            <Box mt="3" data-testid="builder.preview">
              <FormRenderer idPrefix="preview" fields={draft.fields} values={{}} />
            </Box>
          )}
        </Card>
      </Grid>
    </Box>
  );
}
