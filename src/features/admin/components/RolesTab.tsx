import { Badge, Button, DropdownMenu, Flex, IconButton, Table, Text } from "@radix-ui/themes";
import { DotsHorizontalIcon } from "@radix-ui/react-icons";
import { useState } from "react";
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { useRoles } from "../hooks/useRoles";
import { RoleDialog, type EditableRole } from "./RoleDialog";
import { ScrollTable } from "@/ui/ScrollTable";

export type RoleListItem = FunctionReturnType<typeof api.adminRoles.list>[number];

type RolesTabProps = { roles: RoleListItem[] };

/** Built-in roles (read-only) and custom roles; deleting is blocked while a role is assigned. */
export function RolesTab({ roles }: RolesTabProps) {
  const { canDelete, remove } = useRoles();
  const [editing, setEditing] = useState<EditableRole | "new" | null>(null);
  const [deleting, setDeleting] = useState<RoleListItem | null>(null);

  const askDelete = (role: RoleListItem) => {
    if (canDelete(role)) setDeleting(role);
  };
  const handleDelete = async () => {
    if (deleting) await remove(deleting.id);
    setDeleting(null);
  };

  return (
    <>
      <Flex justify="end" mb="3">
        <Button onClick={() => setEditing("new")}>Create Role</Button>
      </Flex>
      <ScrollTable label="Roles" data-testid="admin.roles">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>Role</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Level</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Modes</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Permissions</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Users</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>
              <span className="rt-sr-only">Actions</span>
            </Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {roles.map((r) => (
            <Table.Row key={r.id}>
              <Table.RowHeaderCell>
                <Flex direction="column">
                  <Flex gap="2" align="center">
                    <Badge color={r.color as "gray"}>{r.name}</Badge>
                    {r.builtIn && (
                      <Text size="1" color="gray" wrap="nowrap">
                        Built-in
                      </Text>
                    )}
                  </Flex>
                  <Text size="1" color="gray">
                    {r.description}
                  </Text>
                </Flex>
              </Table.RowHeaderCell>
              <Table.Cell>{r.level}</Table.Cell>
              <Table.Cell>{r.modes.join(", ")}</Table.Cell>
              <Table.Cell>
                <Text size="1">{r.id === "super_admin" ? "All permissions" : r.permissions.join(", ")}</Text>
              </Table.Cell>
              <Table.Cell>{r.assignedCount}</Table.Cell>
              <Table.Cell>
                {r.editable && (
                  <DropdownMenu.Root>
                    <DropdownMenu.Trigger>
                      <IconButton variant="ghost" aria-label={`Actions for ${r.name}`}>
                        <DotsHorizontalIcon />
                      </IconButton>
                    </DropdownMenu.Trigger>
                    <DropdownMenu.Content>
                      <DropdownMenu.Item onSelect={() => setEditing(r)}>Edit</DropdownMenu.Item>
                      <DropdownMenu.Item color="red" onSelect={() => askDelete(r)}>
                        Delete
                      </DropdownMenu.Item>
                    </DropdownMenu.Content>
                  </DropdownMenu.Root>
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </ScrollTable>
      {editing && <RoleDialog role={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete role"
        description={`Delete the role ${deleting?.name ?? ""}? This cannot be undone.`}
        onConfirm={handleDelete}
      />
    </>
  );
}
