import { Button, Dialog, Flex, Text, TextArea, TextField } from "@radix-ui/themes";
import { useMemo, useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { ruleComplete } from "@convex/lib/email/rules";
import { editsOf, type StoredValue } from "@/lib/records/mergeForm";
import { useMergedForm } from "@/lib/records/useMergedForm";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { FieldConflict } from "@/ui/FieldConflict";
import { toast } from "@/ui/toast";
import { useMergedSave } from "@/ui/useMergedSave";
import { RulesEditor } from "./RulesEditor";
import { rulesCount, rulesFromText, rulesToText, shownRules } from "./rulesForm";
import { DeletedByTeammate } from "@/ui/DeletedByTeammate";
import { TEXTS } from "@convex/lib/texts";
import { useSegmentForm, type SegmentRow } from "../hooks/useSegments";

type SegmentDialogProps = {
  open: boolean;
  onOpenChange(open: boolean): void;
  editId: Id<"emailSegments"> | null;
  /** its live version (undefined while loading or once deleted) */
  segment: SegmentRow | undefined;
};

const EMPTY = { name: "", description: "", rules: "[]" };
const LABELS: Record<string, string> = { name: "Name", description: "Description", rules: "Rules" };

function toStored(field: string, value: string): StoredValue {
  if (field === "description") return value.trim() === "" ? null : value.trim();
  if (field === "rules") return value;
  return value.trim();
}

function fromStored(field: string, theirs: StoredValue): string {
  if (field === "rules") return typeof theirs === "string" ? rulesToText(rulesFromText(theirs)) : "[]";
  return theirs === null ? "" : String(theirs);
}

/**
 * New segment / Edit segment: a name, a description and the rules a voter must all match. Editing
 * follows teammates' saves live and sends only the changed fields (no lost updates); a rules
 * change starts a refresh of the segment's members.
 */
export function SegmentDialog({ open, onOpenChange, editId, segment }: SegmentDialogProps) {
  const { create, update, remove, editState } = useSegmentForm(editId);
  const saved = useMemo(
    () =>
      editId === null
        ? EMPTY
        : segment
          ? { name: segment.name, description: segment.description ?? "", rules: rulesToText(segment.rules) }
          : undefined,
    [editId, segment],
  );
  const merged = useMergedForm(editId ?? "new", saved);
  const { busy, save } = useMergedSave(
    merged,
    (c) => [c.field, fromStored(c.field, c.theirs)],
    (k) => LABELS[k],
  );
  const [confirmDelete, setConfirmDelete] = useState(false);
  const form = merged.form;
  const values = form?.values ?? EMPTY;
  const rules = rulesFromText(values.rules);
  const deleted = editId !== null && segment === undefined && form !== null;

  const handleSave = async () => {
    if (!form) return;
    if (!(values.name ?? "").trim()) {
      toast.error("Name required", { description: "Please enter a segment name." });
      return;
    }
    const shown = shownRules(rules, false);
    if (!shown.every(ruleComplete)) {
      toast.error(TEXTS.email.segmentIncomplete.title, { description: TEXTS.email.segmentIncomplete.message });
      return;
    }
    await save(
      async () => {
        if (editId) {
          await update({ id: editId, edits: editsOf(form, toStored) });
          toast.success("Segment updated");
        } else {
          await create({ name: values.name.trim(), description: values.description.trim(), rules: rulesToText(shown) });
          toast.success("Segment created", { description: "Counting its voters…" });
        }
        onOpenChange(false);
      },
      editId ? "Error updating segment" : "Error creating segment",
    );
  };
  const handleDelete = async () => {
    if (!editId) return;
    setConfirmDelete(false);
    try {
      await remove({ id: editId });
      toast.success("Segment deleted");
      onOpenChange(false);
    } catch (e) {
      toast.failure("Error deleting segment", e);
    }
  };

  const conflict = (field: string) => {
    const theirs = form?.conflicts[field];
    if (theirs === undefined) return null;
    return (
      <FieldConflict
        label={LABELS[field]}
        theirs={field === "rules" ? rulesCount(theirs) : theirs}
        by={editState?.fields[field]?.name}
        onKeepMine={() => merged.keepMine(field)}
        onTakeTheirs={() => merged.takeTheirs(field)}
      />
    );
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="720px" aria-describedby={undefined} data-testid="email.segmentDialog">
        <Dialog.Title>{editId ? "Edit segment" : "New segment"}</Dialog.Title>
        {deleted && <DeletedByTeammate what="segment" by={editState?.deleted?.name} />}
        <Flex direction="column" gap="3">
          <div>
            <label>
              <Text size="2" weight="medium">
                Name{" "}
                <Text color="red" aria-hidden>
                  *
                </Text>
              </Text>
              <TextField.Root
                value={values.name ?? ""}
                maxLength={200}
                required
                onChange={(e) => merged.setField("name", e.target.value)}
              />
            </label>
            {conflict("name")}
          </div>
          <div>
            <label>
              <Text size="2" weight="medium">
                Description
              </Text>
              <TextArea
                value={values.description ?? ""}
                maxLength={1000}
                onChange={(e) => merged.setField("description", e.target.value)}
              />
            </label>
            {conflict("description")}
          </div>
          <div>
            <Text as="div" size="2" weight="medium" mb="1">
              Voters matching all of these rules
            </Text>
            <RulesEditor
              rules={rules}
              onChange={(r) => merged.setField("rules", rulesToText(r))}
              label="Segment rule"
              testId="email.segmentRules"
            />
            {conflict("rules")}
          </div>
        </Flex>
        <Flex gap="3" mt="4" justify="between" wrap="wrap">
          {editId ? (
            <Button variant="soft" color="red" disabled={deleted} onClick={() => setConfirmDelete(true)}>
              Delete segment
            </Button>
          ) : (
            <span />
          )}
          <Flex gap="3" wrap="wrap">
            <Dialog.Close>
              <Button variant="soft" color="gray">
                Cancel
              </Button>
            </Dialog.Close>
            <Button loading={busy} disabled={deleted || form === null} onClick={() => void handleSave()}>
              {editId ? "Save segment" : "Create segment"}
            </Button>
          </Flex>
        </Flex>
        <ConfirmDialog
          open={confirmDelete}
          onOpenChange={setConfirmDelete}
          title="Delete segment"
          description={`Are you sure you want to delete the segment "${segment?.name ?? ""}"? This action cannot be undone.`}
          onConfirm={() => void handleDelete()}
        />
      </Dialog.Content>
    </Dialog.Root>
  );
}
