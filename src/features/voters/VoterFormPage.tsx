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
import { Box, Button, Card, Flex, Grid, Heading, Progress, Text } from "@radix-ui/themes";
import { useEffect, useMemo, useState } from "react";
import { useNavigate, useParams } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { MODE_LABELS, useViewer } from "@/session/ViewerProvider";
import { editsOf, type FormValues } from "@/lib/records/mergeForm";
import { useMergedForm } from "@/lib/records/useMergedForm";
import { usePresence } from "@/lib/presence/usePresence";
import { FieldConflict } from "@/ui/FieldConflict";
import { PageHeader } from "@/ui/PageHeader";
import { PresenceAvatars } from "@/ui/PresenceAvatars";
import { toast } from "@/ui/toast";
import { useMergedSave } from "@/ui/useMergedSave";
import { AddFieldDialog } from "./components/AddFieldDialog";
import { CustomFieldsPanel } from "./components/CustomFieldsPanel";
import { SortableSection } from "./components/SortableSection";
import { VoterFieldInput } from "./components/VoterFieldInput";
import { VoterFormSkeleton } from "./components/VoterFormSkeleton";
import { VoterNotFound } from "./components/VoterNotFound";
import { useSectionOrder } from "./hooks/useSectionOrder";
import { useVoterForm } from "./hooks/useVoterRecord";
import {
  CUSTOM_FIELD_TYPES,
  fieldsFromValues,
  formFieldDefs,
  missingRequired,
  SECTION_LABELS,
  storedVoterValue,
  valuesFromVoter,
  voterEditPath,
  voterFormKey,
  voterFormValue,
} from "./utils/voterForm";
import { ROUTES, voterPath } from "@/lib/routes";
import { DeletedByTeammate } from "@/ui/DeletedByTeammate";
import { TEXTS } from "@convex/lib/texts";

const EMPTY: FormValues = {};
const EDITING = { editing: true };

/** /voters/new and /voters/{id}/edit: sections reordered by drag handle, custom fields, validation. */
export function VoterFormPage() {
  const { id } = useParams();
  const isNew = !id || id === "new";
  const navigate = useNavigate();
  const { mode, can } = useViewer();
  const labels = MODE_LABELS[mode];
  const { voter, customDefs, create, update, editState } = useVoterForm(id, isNew);
  const canManage = can("voters.manage");
  const sections = useSectionOrder(canManage);
  const [deletedBy, setDeletedBy] = useState<string | null>(null);
  const saved = useMemo(() => (isNew ? EMPTY : voter ? valuesFromVoter(voter) : undefined), [isNew, voter]);
  const merged = useMergedForm(isNew ? "new" : (id ?? null), saved);
  const fieldLabels = useMemo(
    () => new Map(formFieldDefs(customDefs ?? []).map((d) => [d.key, d.label])),
    [customDefs],
  );
  const { busy: saving, save } = useMergedSave(
    merged,
    (c) => [voterFormKey(c.field), voterFormValue(c.theirs)],
    (k) => fieldLabels.get(k),
  );
  const [addFieldOpen, setAddFieldOpen] = useState(false);
  const presence = usePresence(isNew ? null : `voter:${id}`, EDITING);
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  // Remember who deleted the voter while it was open (the marks stay readable after the delete).
  useEffect(() => {
    if (editState?.deleted) setDeletedBy(editState.deleted.name);
  }, [editState]);

  const defs = useMemo(() => formFieldDefs(customDefs ?? []), [customDefs]);
  const title = isNew
    ? `Add ${labels.voter}`
    : voter
      ? `Edit ${voter.first_name} ${voter.last_name}`
      : `Edit ${labels.voter}`;
  const breadcrumbs = [
    { label: "Dashboard", to: ROUTES.dashboard },
    { label: labels.voters, to: ROUTES.voters },
    { label: isNew ? `New ${labels.voter}` : voter ? `${voter.first_name} ${voter.last_name}` : labels.voter },
  ];

  const form = merged.form;
  if (!isNew && voter === null && form === null) {
    return <VoterNotFound title="Voter Not Found" text="The voter you're trying to edit could not be found." />;
  }
  if (form === null || customDefs === undefined || !sections.loaded) {
    return (
      <Box>
        <PageHeader title={title} breadcrumbs={breadcrumbs} />
        <VoterFormSkeleton />
      </Box>
    );
  }

  const values = form.values;
  const deleted = !isNew && voter === null;
  const filled = defs.filter((d) => (values[d.key] ?? "").trim() !== "").length;
  const setValue = (key: string) => (v: string) => merged.setField(key, v);
  const byField = editState?.fields ?? {};

  const handleDragEnd = (e: DragEndEvent) => {
    if (e.over) sections.move(String(e.active.id), String(e.over.id));
  };

  const handleSave = async () => {
    const missing = missingRequired(values, defs);
    if (missing.length > 0) {
      toast.error(TEXTS.titles.missingRequired, { description: `Please fill in: ${missing.join(", ")}` });
      return;
    }
    await save(async () => {
      if (isNew) {
        const newId: Id<"voters"> = await create({ fields: fieldsFromValues(values, customDefs) });
        if (!newId) throw new Error("No data returned after creating voter");
        toast.success("Voter created successfully");
        setTimeout(() => void navigate(voterPath(newId)), 100);
      } else {
        const edits = editsOf(form, storedVoterValue).map((e) => ({ ...e, field: voterEditPath(e.field) }));
        await update({ id: voter!._id, edits });
        toast.success("Voter updated successfully", { duration: 3000 });
        void navigate(voterPath(voter!._id));
      }
    }, "Error saving voter");
  };

  const handleCancel = () => {
    merged.reset();
    void navigate(isNew ? ROUTES.voters : voterPath(voter!._id));
  };

  return (
    <Box>
      <PageHeader title={title} breadcrumbs={breadcrumbs} actions={<PresenceAvatars people={presence.others} />} />
      {deleted && (
        <DeletedByTeammate
          what={labels.voter.toLowerCase()}
          by={deletedBy}
          consequence="Your changes cannot be saved."
          testId="voters.form.deleted"
        />
      )}
      <Grid columns={{ initial: "1", md: "3fr 1fr" }} gap="4">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void handleSave();
          }}
        >
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={handleDragEnd}>
            <SortableContext items={sections.order} strategy={verticalListSortingStrategy}>
              <Flex direction="column" gap="4" data-testid="voters.form.sections">
                {sections.order.map((s) => {
                  const fields = defs.filter((d) => d.section === s);
                  return (
                    <SortableSection key={s} id={s} title={SECTION_LABELS[s]} draggable={canManage}>
                      {fields.length === 0 ? (
                        <Text size="2" color="gray">
                          No custom fields yet. Use Add Field to create one.
                        </Text>
                      ) : (
                        fields.map((d) => (
                          <Box key={d.key}>
                            <VoterFieldInput def={d} value={values[d.key] ?? ""} onChange={setValue(d.key)} />
                            {form.conflicts[d.key] !== undefined && (
                              <FieldConflict
                                label={d.label}
                                theirs={form.conflicts[d.key]}
                                by={byField[voterEditPath(d.key)]?.name}
                                onKeepMine={() => merged.keepMine(d.key)}
                                onTakeTheirs={() => merged.takeTheirs(d.key)}
                              />
                            )}
                          </Box>
                        ))
                      )}
                    </SortableSection>
                  );
                })}
              </Flex>
            </SortableContext>
          </DndContext>
          <Flex gap="3" mt="4" justify="end">
            <Button type="button" variant="soft" color="gray" onClick={handleCancel}>
              Cancel
            </Button>
            <Button type="submit" loading={saving} disabled={deleted}>
              {isNew ? `Create ${labels.voter}` : "Save Changes"}
            </Button>
          </Flex>
        </form>
        <Flex direction="column" gap="4">
          <Card>
            <Heading size="3" as="h2" mb="2">
              Field Management
            </Heading>
            <Text as="p" size="2" color="gray" mb="2">
              {canManage
                ? "Drag a section by its handle (or focus the handle and use Space and the arrow keys) to change the order for your whole organization. Fields marked * are required."
                : "Fields marked * are required."}
            </Text>
            <Text size="2" weight="medium">
              Available field types
            </Text>
            <Text as="p" size="2" color="gray">
              {CUSTOM_FIELD_TYPES.map((t) => t.label).join(", ")}
            </Text>
          </Card>
          <CustomFieldsPanel defs={customDefs} canManage={canManage} onAdd={() => setAddFieldOpen(true)} />
          <Card>
            <Heading size="3" as="h2" mb="2" id="voter-form-progress">
              Save Progress
            </Heading>
            <Progress aria-labelledby="voter-form-progress" value={defs.length ? (filled / defs.length) * 100 : 0} />
            <Text size="1" color="gray">
              {filled} of {defs.length} fields filled
            </Text>
          </Card>
        </Flex>
      </Grid>
      <AddFieldDialog open={addFieldOpen} onOpenChange={setAddFieldOpen} />
    </Box>
  );
}
