import { Badge, Button, Card, DropdownMenu, Flex, Heading, IconButton, Table, Text } from "@radix-ui/themes";
import { DotsHorizontalIcon } from "@radix-ui/react-icons";
import { useState } from "react";
import { useMembers } from "../hooks/useMembers";
import { CreateMemberDialog } from "./CreateMemberDialog";
import { ScrollTable } from "@/ui/ScrollTable";

const STATUS_COLOR = { active: "green", pending: "yellow" } as const;

/** Members: active members (green) and pending invitations (yellow), with resend/revoke/remove. */
export function MembersSection() {
  const { members, resend, revoke, remove } = useMembers();
  const [creating, setCreating] = useState(false);

  return (
    <Card size="3">
      <Flex justify="between" align="center" mb="3">
        <Heading size="4">Members</Heading>
        <Button onClick={() => setCreating(true)}>Create New Member</Button>
      </Flex>
      {members === undefined ? (
        <Text color="gray">Loading...</Text>
      ) : (
        <ScrollTable label="Members" data-testid="admin.members">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Role</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Invited</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>
                <span className="rt-sr-only">Actions</span>
              </Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {members.map((m) => (
              <Table.Row key={m.id}>
                <Table.RowHeaderCell>{`${m.firstName} ${m.lastName}`.trim()}</Table.RowHeaderCell>
                <Table.Cell>{m.email}</Table.Cell>
                <Table.Cell>
                  <Badge color={m.roleColor as "gray"}>{m.roleName}</Badge>
                </Table.Cell>
                <Table.Cell>
                  <Badge color={STATUS_COLOR[m.status as keyof typeof STATUS_COLOR] ?? "gray"}>{m.status}</Badge>
                </Table.Cell>
                <Table.Cell>
                  <Text size="1" color="gray">
                    {new Date(m.invitedAt).toLocaleDateString()}
                    {m.invitedBy ? ` by ${m.invitedBy}` : ""}
                  </Text>
                </Table.Cell>
                <Table.Cell>
                  <DropdownMenu.Root>
                    <DropdownMenu.Trigger>
                      <IconButton variant="ghost" aria-label={`Actions for ${m.email}`}>
                        <DotsHorizontalIcon />
                      </IconButton>
                    </DropdownMenu.Trigger>
                    <DropdownMenu.Content>
                      {m.kind === "invitation" ? (
                        <>
                          <DropdownMenu.Item onSelect={() => void resend(m.id)}>Resend invitation</DropdownMenu.Item>
                          <DropdownMenu.Item color="red" onSelect={() => void revoke(m.id)}>
                            Revoke invitation
                          </DropdownMenu.Item>
                        </>
                      ) : (
                        <DropdownMenu.Item color="red" onSelect={() => void remove(m.userId)}>
                          Remove member
                        </DropdownMenu.Item>
                      )}
                    </DropdownMenu.Content>
                  </DropdownMenu.Root>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </ScrollTable>
      )}
      <CreateMemberDialog open={creating} onOpenChange={setCreating} />
    </Card>
  );
}
