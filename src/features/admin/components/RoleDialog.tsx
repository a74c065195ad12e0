import { Button, Checkbox, Dialog, Flex, Grid, Select, Text, TextArea, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { classifyError } from "@convex/lib/errors";
import { MODES, ROLE_COLORS, ROLE_FORM_PERMISSIONS, type Mode } from "@convex/lib/permissions";
import { useViewer } from "@/session/ViewerProvider";
import { toast } from "@/ui/toast";
import { useRoleForm } from "../hooks/useRoles";

export type EditableRole = {
  id: string;
  name: string;
  description: string;
  color: string;
  level: number;
  permissions: string[];
  modes: Mode[];
};

type RoleDialogProps = { role: EditableRole | null; onClose(): void };

const MODE_NAMES: Record<Mode, string> = { campaign: "Campaign", relationship: "Relationship", petition: "Petition" };
/** The role form's colours (spec/3 §6). */
const FORM_COLORS = ROLE_COLORS.filter((c) => c !== "gray");

/** Create or edit a custom role: name, description, colour, level 1–100 (default 20), modes, permissions. */
export function RoleDialog({ role, onClose }: RoleDialogProps) {
  const { create, update } = useRoleForm();
  const { can } = useViewer();
  // Only permissions the caller holds can be given (the server refuses the others).
  const offered = ROLE_FORM_PERMISSIONS.filter((p) => can(p));
  const [name, setName] = useState(role?.name ?? "");
  const [description, setDescription] = useState(role?.description ?? "");
  const [color, setColor] = useState(role?.color ?? "blue");
  const [level, setLevel] = useState(String(role?.level ?? 20));
  const [modes, setModes] = useState<Mode[]>(role?.modes ?? ["campaign"]);
  const [permissions, setPermissions] = useState<string[]>(role?.permissions ?? []);
  const [busy, setBusy] = useState(false);
  const levelNumber = Number(level);
  const levelValid = Number.isInteger(levelNumber) && levelNumber >= 1 && levelNumber <= 100;

  const handleSave = async () => {
    setBusy(true);
    const input = { name, description, color, level: levelNumber, modes, permissions };
    try {
      if (role) await update({ roleId: role.id, ...input });
      else await create(input);
      toast.success(role ? "Role updated" : "Role created");
      onClose();
    } catch (e) {
      toast.error("Error saving role", { description: classifyError(e).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="520px">
        <Dialog.Title>{role ? "Edit Role" : "Create Role"}</Dialog.Title>
        <Flex direction="column" gap="3">
          <label>
            <Text size="2" weight="medium">
              Role Name
            </Text>
            <TextField.Root value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            <Text size="2" weight="medium">
              Description
            </Text>
            <TextArea value={description} onChange={(e) => setDescription(e.target.value)} />
          </label>
          <Grid columns="2" gap="3">
            <Flex direction="column" gap="1">
              <Text size="2" weight="medium">
                Color
              </Text>
              <Select.Root value={color} onValueChange={setColor}>
                <Select.Trigger aria-label="Color" />
                <Select.Content>
                  {FORM_COLORS.map((c) => (
                    <Select.Item key={c} value={c}>
                      {c}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </Flex>
            <label>
              <Text size="2" weight="medium">
                Access Level (1-100)
              </Text>
              <TextField.Root
                type="number"
                min={1}
                max={100}
                value={level}
                onChange={(e) => setLevel(e.target.value)}
                color={levelValid ? undefined : "red"}
              />
            </label>
          </Grid>
          <Flex direction="column" gap="1">
            <Text size="2" weight="medium">
              Modes
            </Text>
            <Flex gap="3">
              {MODES.map((m) => (
                <Text as="label" size="2" key={m}>
                  <Flex gap="1" align="center">
                    <Checkbox
                      checked={modes.includes(m)}
                      onCheckedChange={(c) => setModes(c === true ? [...modes, m] : modes.filter((x) => x !== m))}
                    />
                    {MODE_NAMES[m]}
                  </Flex>
                </Text>
              ))}
            </Flex>
          </Flex>
          <Flex direction="column" gap="1">
            <Text size="2" weight="medium">
              Permissions
            </Text>
            <Grid columns={{ initial: "1", xs: "2" }} gap="1">
              {offered.map((p) => (
                <Text as="label" size="2" key={p}>
                  <Flex gap="1" align="center">
                    <Checkbox
                      checked={permissions.includes(p)}
                      onCheckedChange={(c) =>
                        setPermissions(c === true ? [...permissions, p] : permissions.filter((x) => x !== p))
                      }
                    />
                    {p}
                  </Flex>
                </Text>
              ))}
            </Grid>
          </Flex>
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={busy} disabled={!name.trim() || !levelValid} onClick={handleSave}>
            {role ? "Save Role" : "Create Role"}
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
