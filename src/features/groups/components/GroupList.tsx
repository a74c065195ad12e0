import { Pencil1Icon, TrashIcon } from "@radix-ui/react-icons";
import { Badge, Box, Card, Flex, Heading, IconButton, Text } from "@radix-ui/themes";
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

type Group = FunctionReturnType<typeof api.groups.list>[number];
type GroupListProps = {
  groups: Group[];
  selectedId: Id<"voterGroups"> | null;
  canManage: boolean;
  onSelect(id: Id<"voterGroups">): void;
  onEdit(group: Group): void;
  onDelete(group: Group): void;
};

export function GroupList({ groups, selectedId, canManage, onSelect, onEdit, onDelete }: GroupListProps) {
  return (
    <Card data-testid="groups.list">
      <Heading size="4" as="h2" mb="3">
        Available Groups
      </Heading>
      {groups.length === 0 ? (
        <Text color="gray" size="2">
          No groups yet.
        </Text>
      ) : (
        <Flex direction="column" gap="2">
          {groups.map((g) => (
            <Card
              key={g._id}
              variant={g._id === selectedId ? "classic" : "surface"}
              style={{ cursor: "pointer", outline: g._id === selectedId ? "2px solid var(--accent-8)" : undefined }}
              onClick={() => onSelect(g._id)}
              aria-current={g._id === selectedId}
            >
              <Flex justify="between" align="start" gap="2">
                <Box>
                  <Text as="div" weight="medium">
                    {g.name}
                  </Text>
                  {g.description && (
                    <Text as="div" size="1" color="gray">
                      {g.description}
                    </Text>
                  )}
                  <Badge variant="soft" mt="1">
                    {g.memberCount} members
                  </Badge>
                </Box>
                {canManage && (
                  <Flex gap="2">
                    <IconButton
                      size="1"
                      variant="ghost"
                      aria-label={`Edit group ${g.name}`}
                      onClick={(e) => {
                        e.stopPropagation();
                        onEdit(g);
                      }}
                    >
                      <Pencil1Icon />
                    </IconButton>
                    <IconButton
                      size="1"
                      variant="ghost"
                      color="red"
                      aria-label={`Delete group ${g.name}`}
                      onClick={(e) => {
                        e.stopPropagation();
                        onDelete(g);
                      }}
                    >
                      <TrashIcon />
                    </IconButton>
                  </Flex>
                )}
              </Flex>
            </Card>
          ))}
        </Flex>
      )}
    </Card>
  );
}
