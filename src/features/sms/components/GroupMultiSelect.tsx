import { Box, Checkbox, Flex, Skeleton, Text } from "@radix-ui/themes";
import type { Id } from "@convex/_generated/dataModel";
import { useGroupList } from "@/features/groups";

type GroupMultiSelectProps = { value: Id<"voterGroups">[]; onChange(value: Id<"voterGroups">[]): void };

/** Voter groups to target, ticked in a short scrolling list (groups ordered by name). */
export function GroupMultiSelect({ value, onChange }: GroupMultiSelectProps) {
  const { groups } = useGroupList();
  const chosen = new Set(value);
  const toggle = (id: Id<"voterGroups">, on: boolean) => onChange(on ? [...value, id] : value.filter((g) => g !== id));
  return (
    <Box role="group" aria-label="Voter groups">
      <Text as="div" size="2" weight="medium" mb="1">
        Voter Groups
      </Text>
      {groups === undefined ? (
        <Skeleton height="60px" />
      ) : groups.length === 0 ? (
        <Text size="2" color="gray">
          No voter groups yet.
        </Text>
      ) : (
        <Box
          style={{
            maxHeight: 160,
            overflowY: "auto",
            border: "1px solid var(--gray-a6)",
            borderRadius: "var(--radius-2)",
            padding: "var(--space-2)",
          }}
          tabIndex={0}
        >
          <Flex direction="column" gap="2">
            {groups.map((g) => (
              <Text as="label" size="2" key={g._id}>
                <Flex gap="2" align="center">
                  <Checkbox checked={chosen.has(g._id)} onCheckedChange={(c) => toggle(g._id, c === true)} />
                  {g.name}
                  <Text size="1" color="gray">
                    ({g.memberCount.toLocaleString()} {g.memberCount === 1 ? "member" : "members"})
                  </Text>
                </Flex>
              </Text>
            ))}
          </Flex>
        </Box>
      )}
    </Box>
  );
}
