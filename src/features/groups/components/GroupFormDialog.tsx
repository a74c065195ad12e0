import { Button, Dialog, Flex, Text, TextArea, TextField } from "@radix-ui/themes";
import { useMemo } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { editsOf } from "@/lib/records/mergeForm";
import { useMergedForm } from "@/lib/records/useMergedForm";
import { FieldConflict } from "@/ui/FieldConflict";
import { toast } from "@/ui/toast";
import { useMergedSave } from "@/ui/useMergedSave";
import { DeletedByTeammate } from "@/ui/DeletedByTeammate";
import { TEXTS } from "@convex/lib/texts";
import { useGroupForm } from "../hooks/useGroupForm";

type GroupFormDialogProps = {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** the group being edited, null to create one */
  editId: Id<"voterGroups"> | null;
  /** its live version (undefined while loading or once deleted) */
  group: { _id: Id<"voterGroups">; name: string; description: string | null } | undefined;
  onSaved?(id: Id<"voterGroups">): void;
};

const EMPTY = { name: "", description: "" };
const toStored = (_field: string, value: string) => (value.trim() === "" ? null : value.trim());

/**
 * Create New Group / Edit Group. The caller remounts it (a new `key`) for each opening. Editing
 * follows teammates' saves live and sends only the changed fields (no lost updates).
 */
export function GroupFormDialog({ open, onOpenChange, editId, group, onSaved }: GroupFormDialogProps) {
  const { create, update, editState } = useGroupForm(editId);
  const saved = useMemo(
    () => (editId === null ? EMPTY : group ? { name: group.name, description: group.description ?? "" } : undefined),
    [editId, group],
  );
  const merged = useMergedForm(editId ?? "new", saved);
  const { busy, save } = useMergedSave(merged);
  const form = merged.form;
  const values = form?.values ?? EMPTY;
  const deleted = editId !== null && group === undefined && form !== null;
  const labels: Record<string, string> = { name: "Group Name", description: "Description" };

  const handleSave = async () => {
    if (!form) return;
    if (!(values.name ?? "").trim()) {
      toast.error("Name Required", { description: TEXTS.required.groupName });
      return;
    }
    await save(
      async () => {
        if (editId) {
          await update({ id: editId, edits: editsOf(form, toStored) });
          toast.success("Group Updated");
          onSaved?.(editId);
        } else {
          const id = await create({ name: values.name ?? "", description: values.description ?? "" });
          toast.success("Group Created");
          onSaved?.(id);
        }
        onOpenChange(false);
      },
      editId ? "Error Updating Group" : "Error Creating Group",
    );
  };

  const conflict = (field: string) =>
    form?.conflicts[field] !== undefined && (
      <FieldConflict
        label={labels[field]}
        theirs={form.conflicts[field]}
        by={editState?.fields[field]?.name}
        onKeepMine={() => merged.keepMine(field)}
        onTakeTheirs={() => merged.takeTheirs(field)}
      />
    );

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="460px">
        <Dialog.Title>{editId ? "Edit Group" : "Create New Group"}</Dialog.Title>
        {deleted && <DeletedByTeammate what="group" by={editState?.deleted?.name} />}
        <Flex direction="column" gap="3">
          <div>
            <label>
              <Text size="2" weight="medium">
                Group Name
              </Text>
              <TextField.Root
                value={values.name ?? ""}
                onChange={(e) => merged.setField("name", e.target.value)}
                aria-label="Group name"
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
                onChange={(e) => merged.setField("description", e.target.value)}
                aria-label="Description"
              />
            </label>
            {conflict("description")}
          </div>
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={busy} disabled={deleted} onClick={() => void handleSave()}>
            {editId ? "Update Group" : "Create Group"}
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
