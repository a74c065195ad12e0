import { Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { Id } from "@convex/_generated/dataModel";
import { useVoterChanges } from "../hooks/useVoterChanges";
import { changeFieldLabel, changeValueText } from "../utils/voterDisplay";

type VoterChangesCardProps = { voterId: Id<"voters">; customDefs: { key: string; label: string }[] | undefined };

/** What changed on the voter, when, and by whom (a teammate) or which import file: newest first. */
export function VoterChangesCard({ voterId, customDefs }: VoterChangesCardProps) {
  const { changes } = useVoterChanges(voterId);
  const customLabels = new Map((customDefs ?? []).map((d) => [d.key, d.label]));
  return (
    <Card data-testid="voter.changes">
      <Heading as="h2" size="4" mb="2">
        History
      </Heading>
      {changes === undefined ? null : changes.length === 0 ? (
        <Text size="2" color="gray">
          No changes since the voter was added.
        </Text>
      ) : (
        <Flex direction="column" gap="3" asChild>
          <ol style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {changes.map((c) => {
              const who =
                c.by?.kind === "import"
                  ? `Import of ${c.by.filename ?? "a deleted file"}`
                  : c.by?.kind === "user"
                    ? (c.by.name ?? "A former member")
                    : "The system";
              return (
                <li key={c._id} data-testid="voters.change">
                  <Text as="div" size="1" color="gray">
                    {new Date(c.at).toLocaleString()} ·{" "}
                    <Text weight="medium" highContrast>
                      {who}
                    </Text>
                  </Text>
                  <Flex direction="column" gap="1" mt="1" asChild>
                    <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
                      {c.changes.map((ch) => (
                        <li key={ch.field}>
                          <Text size="2" style={{ overflowWrap: "anywhere" }}>
                            <Text weight="medium">{changeFieldLabel(ch.field, customLabels)}</Text>:{" "}
                            {changeValueText(ch.field, ch.from)} → {changeValueText(ch.field, ch.to)}
                          </Text>
                        </li>
                      ))}
                    </ul>
                  </Flex>
                </li>
              );
            })}
          </ol>
        </Flex>
      )}
    </Card>
  );
}
