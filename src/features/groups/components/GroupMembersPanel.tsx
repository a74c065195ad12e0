import { DotsHorizontalIcon, EyeOpenIcon, TrashIcon } from "@radix-ui/react-icons";
import { Button, Card, DropdownMenu, Flex, Heading, IconButton, Table, Text } from "@radix-ui/themes";
import { useNavigate } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { usePresence } from "@/lib/presence/usePresence";
import { PresenceAvatars } from "@/ui/PresenceAvatars";
import { toast } from "@/ui/toast";
import { ScrollTable } from "@/ui/ScrollTable";
import { ROUTES, voterPath } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { useGroupMembers } from "../hooks/useGroupMembers";

type GroupMembersPanelProps = {
  group: { _id: Id<"voterGroups">; name: string; memberCount: number } | null;
  canChange: boolean;
  onAddMembers(): void;
};

export function GroupMembersPanel({ group, canChange, onAddMembers }: GroupMembersPanelProps) {
  const navigate = useNavigate();
  const { members, removeMember } = useGroupMembers(group ? group._id : null);
  const presence = usePresence(group ? `group:${group._id}` : null);

  const handleRemove = async (voterId: Id<"voters">) => {
    if (!group) return;
    try {
      await removeMember({ groupId: group._id, voterId });
      toast.success("Member removed");
    } catch (e) {
      toast.failure("Error removing from group", e);
    }
  };

  return (
    <Card data-testid="groups.members">
      <Flex justify="between" align="center" mb="3">
        <Flex direction="column" gap="1">
          <Heading size="4" as="h2">
            Group Members{group ? ` — ${group.name} (${group.memberCount})` : ""}
          </Heading>
          <PresenceAvatars people={presence.others} />
        </Flex>
        {group && (
          <DropdownMenu.Root>
            <DropdownMenu.Trigger>
              <Button variant="soft">
                Actions <DotsHorizontalIcon />
              </Button>
            </DropdownMenu.Trigger>
            <DropdownMenu.Content>
              <DropdownMenu.Item onSelect={() => navigate(`${ROUTES.email}?tab=send-to&group=${group._id}`)}>
                Email Group
              </DropdownMenu.Item>
              <DropdownMenu.Item onSelect={() => navigate(`${ROUTES.smsCenter}?group=${group._id}`)}>
                SMS Group
              </DropdownMenu.Item>
              {canChange && <DropdownMenu.Item onSelect={onAddMembers}>Add Members</DropdownMenu.Item>}
            </DropdownMenu.Content>
          </DropdownMenu.Root>
        )}
      </Flex>
      {!group ? (
        <Text color="gray">Select a group to see its members.</Text>
      ) : members.isLoading && members.results.length === 0 ? (
        <Loading inline size="2" />
      ) : members.results.length === 0 ? (
        <Text color="gray">This group has no members yet.</Text>
      ) : (
        <>
          <ScrollTable label={group.name}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Phone</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell align="right">Actions</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {members.results.map((m) => {
                const name = `${m.first_name} ${m.last_name}`;
                return (
                  <Table.Row key={m._id}>
                    <Table.RowHeaderCell>{name}</Table.RowHeaderCell>
                    <Table.Cell>{m.email ?? ""}</Table.Cell>
                    <Table.Cell>{m.phone ?? ""}</Table.Cell>
                    <Table.Cell align="right">
                      <Flex gap="2" justify="end">
                        <IconButton
                          size="1"
                          variant="ghost"
                          aria-label={`View ${name}`}
                          onClick={() => navigate(voterPath(m.voterId))}
                        >
                          <EyeOpenIcon />
                        </IconButton>
                        {canChange && (
                          <IconButton
                            size="1"
                            variant="ghost"
                            color="red"
                            aria-label={`Remove ${name}`}
                            onClick={() => void handleRemove(m.voterId)}
                          >
                            <TrashIcon />
                          </IconButton>
                        )}
                      </Flex>
                    </Table.Cell>
                  </Table.Row>
                );
              })}
            </Table.Body>
          </ScrollTable>
          {members.status === "CanLoadMore" && (
            <Flex justify="center" mt="3">
              <Button variant="soft" onClick={() => members.loadMore(50)}>
                Load more
              </Button>
            </Flex>
          )}
        </>
      )}
    </Card>
  );
}
