import { Badge, Button, DropdownMenu, Flex, IconButton, Table, Text } from "@radix-ui/themes";
import { DotsHorizontalIcon } from "@radix-ui/react-icons";
import { useState } from "react";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { useUsers } from "../hooks/useUsers";
import { UserDialog, type EditableUser, type RoleOption } from "./UserDialog";
import { ScrollTable } from "@/ui/ScrollTable";

type UsersTabProps = { roles: (RoleOption & { color: string; grantable: boolean })[] };

/** Users of this organisation: create, edit name and roles, remove from the organisation. */
export function UsersTab({ roles }: UsersTabProps) {
  const { users, remove } = useUsers();
  const [editing, setEditing] = useState<EditableUser | "new" | null>(null);
  const [removing, setRemoving] = useState<EditableUser | null>(null);
  const roleById = new Map(roles.map((r) => [r.id, r]));
  // The server refuses roles out of the caller's reach; offer only the ones it would accept.
  const assignable = roles.filter((r) => r.grantable);

  const handleRemove = async () => {
    if (removing) await remove(removing.id);
    setRemoving(null);
  };

  return (
    <>
      <Flex justify="end" mb="3">
        <Button onClick={() => setEditing("new")}>Create User</Button>
      </Flex>
      {users === undefined ? (
        <Text color="gray">Loading...</Text>
      ) : (
        <ScrollTable label="Users" data-testid="admin.users">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Roles</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Last Sign In</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>
                <span className="rt-sr-only">Actions</span>
              </Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {users.map((u) => (
              <Table.Row key={u.id}>
                <Table.RowHeaderCell>
                  {u.name} {u.isSelf && <Badge color="gray">You</Badge>}{" "}
                  {u.status === "invited" && <Badge color="yellow">invited</Badge>}
                </Table.RowHeaderCell>
                <Table.Cell>{u.email}</Table.Cell>
                <Table.Cell>
                  <Flex gap="1" wrap="wrap">
                    {u.roles.map((r) => (
                      <Badge key={r} color={(roleById.get(r)?.color ?? "gray") as "gray"}>
                        {roleById.get(r)?.name ?? r}
                      </Badge>
                    ))}
                  </Flex>
                </Table.Cell>
                <Table.Cell>{new Date(u.createdAt).toLocaleDateString()}</Table.Cell>
                <Table.Cell>{u.lastSignInAt ? new Date(u.lastSignInAt).toLocaleString() : "Never"}</Table.Cell>
                <Table.Cell>
                  {u.status !== "invited" && (
                    <DropdownMenu.Root>
                      <DropdownMenu.Trigger>
                        <IconButton variant="ghost" aria-label={`Actions for ${u.email}`}>
                          <DotsHorizontalIcon />
                        </IconButton>
                      </DropdownMenu.Trigger>
                      <DropdownMenu.Content>
                        <DropdownMenu.Item onSelect={() => setEditing(u)}>Edit</DropdownMenu.Item>
                        {!u.isSelf && (
                          <DropdownMenu.Item color="red" onSelect={() => setRemoving(u)}>
                            Remove from organization
                          </DropdownMenu.Item>
                        )}
                      </DropdownMenu.Content>
                    </DropdownMenu.Root>
                  )}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </ScrollTable>
      )}
      {editing && (
        <UserDialog
          user={editing === "new" ? null : editing}
          roles={editing === "new" ? assignable : roles.filter((r) => r.grantable || editing.roles.includes(r.id))}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title="Remove user"
        description={`Remove ${removing?.name ?? ""} from this organization? Their account stays; they lose access here.`}
        confirmLabel="Remove"
        onConfirm={handleRemove}
      />
    </>
  );
}
