import { Badge, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { historyColor } from "../utils/voterDisplay";

type StateHistoryCardProps = { score: number | undefined; elections: number };

/**
 * The state voter history on its 0–4 scale (0 red, up to 2 orange, above 2 green). A voter with no
 * history at all gets a neutral "No vote history", not a red 0/4 that reads as "never votes".
 */
export function StateHistoryCard({ score, elections }: StateHistoryCardProps) {
  return (
    <Card>
      <Heading as="h2" size="4" mb="2">
        State Voter History
      </Heading>
      <Flex align="center" gap="3" wrap="wrap">
        {score !== undefined ? (
          <>
            <Badge size="3" color={historyColor(score)} data-testid="voters.history">
              {score}/4
            </Badge>
            <Text size="2" color="gray">
              elections voted in (of the last 4)
            </Text>
          </>
        ) : elections > 0 ? (
          <>
            <Badge size="3" color="gray" data-testid="voters.history">
              Not scored
            </Badge>
            <Text size="2" color="gray">
              the state file gave no 0–4 score; see the vote history
            </Text>
          </>
        ) : (
          <Badge size="3" color="gray" data-testid="voters.history">
            No vote history
          </Badge>
        )}
      </Flex>
    </Card>
  );
}
