import { Cross2Icon, PlusIcon } from "@radix-ui/react-icons";
import { Badge, Button, Card, Flex, Heading, IconButton, Text } from "@radix-ui/themes";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";
import { useGroupsOfVoter } from "../hooks/useVoterContact";

type VoterGroupsCardProps = { voterId: Id<"voters">; canChange: boolean; onAdd(): void };

export function VoterGroupsCard({ voterId, canChange, onAdd }: VoterGroupsCardProps) {
  const { groups, removeMember } = useGroupsOfVoter(voterId);
  const handleRemove = async (groupId: Id<"voterGroups">) => {
    try {
      await removeMember({ groupId, voterId });
    } catch (e) {
      toast.failure("Error removing from group", e);
    }
  };
  return (
    <Card data-testid="voters.groups">
      <Flex justify="between" align="center" mb="3">
        <Heading as="h2" size="4">
          Groups
        </Heading>
        {canChange && (
          <Button size="1" variant="soft" onClick={onAdd}>
            <PlusIcon /> Add to Group
          </Button>
        )}
      </Flex>
      {groups === undefined ? null : groups.length === 0 ? (
        <Text color="gray" size="2">
          Not in any group.
        </Text>
      ) : (
        <Flex gap="2" wrap="wrap">
          {groups.map((g) => (
            <Badge key={g._id} size="2" variant="soft">
              {g.name}
              {canChange && (
                <IconButton
                  size="1"
                  variant="ghost"
                  aria-label={`Remove from ${g.name}`}
                  onClick={() => void handleRemove(g._id)}
                >
                  <Cross2Icon />
                </IconButton>
              )}
            </Badge>
          ))}
        </Flex>
      )}
    </Card>
  );
}
