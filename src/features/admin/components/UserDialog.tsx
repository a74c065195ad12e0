import { Button, Checkbox, Dialog, Flex, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { classifyError } from "@convex/lib/errors";
import { toast } from "@/ui/toast";
import { useUserForm } from "../hooks/useUsers";

export type RoleOption = { id: string; name: string };
export type EditableUser = { id: string; name: string; email: string; roles: string[] };

type UserDialogProps = { user: EditableUser | null; roles: RoleOption[]; onClose(): void };

/** Create (email, name, roles → an emailed set-your-password invitation) or edit (name, roles). */
export function UserDialog({ user, roles, onClose }: UserDialogProps) {
  const { create, update } = useUserForm();
  const [email, setEmail] = useState(user?.email ?? "");
  const [name, setName] = useState(user?.name ?? "");
  const [selected, setSelected] = useState<string[]>(user?.roles ?? []);
  const [busy, setBusy] = useState(false);

  const toggle = (id: string, on: boolean) => setSelected(on ? [...selected, id] : selected.filter((r) => r !== id));

  const handleSave = async () => {
    setBusy(true);
    try {
      if (user) {
        await update({ userId: user.id, name, roleIds: selected });
        toast.success("User updated");
        onClose();
      } else {
        const res = await create({ email, name, roleIds: selected });
        toast.success("User created", { description: `${res.email} will receive an email to set a password.` });
        onClose();
      }
    } catch (e) {
      toast.error("Error saving user", { description: classifyError(e).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="480px">
        <Dialog.Title>{user ? "Edit User" : "Create User"}</Dialog.Title>
        <Flex direction="column" gap="3">
          <label>
            <Text size="2" weight="medium">
              Email
            </Text>
            <TextField.Root
              type="email"
              value={email}
              disabled={user !== null}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
          <label>
            <Text size="2" weight="medium">
              Name
            </Text>
            <TextField.Root value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <Flex direction="column" gap="2">
            <Text size="2" weight="medium">
              Roles
            </Text>
            {roles.map((r) => (
              <Text as="label" size="2" key={r.id}>
                <Flex gap="2" align="center">
                  <Checkbox checked={selected.includes(r.id)} onCheckedChange={(c) => toggle(r.id, c === true)} />
                  {r.name}
                </Flex>
              </Text>
            ))}
          </Flex>
          {!user && (
            <Text size="1" color="gray">
              The new user receives an email with a link to set their own password.
            </Text>
          )}
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button
            loading={busy}
            disabled={!name.trim() || (!user && !email.trim()) || selected.length === 0}
            onClick={handleSave}
          >
            {user ? "Save" : "Create User"}
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
