import { Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { ElectionRecord } from "@convex/tables/voters";
import { electionsNewestFirst } from "../utils/voterDisplay";

/** The elections the voter took part in, newest first: election, date, type, how they voted, party ballot. */
export function VoteHistoryCard({ elections }: { elections: ElectionRecord[] }) {
  const list = electionsNewestFirst(elections);
  return (
    <Card data-testid="voter.voteHistory">
      <Heading as="h2" size="4" mb="2">
        Vote History
      </Heading>
      {list.length === 0 ? (
        <Text size="2" color="gray">
          No vote history.
        </Text>
      ) : (
        <Flex direction="column" gap="2" asChild>
          <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {list.map((e, i) => {
              const details = [e.date, e.type, e.method, e.party && `${e.party} ballot`].filter(Boolean);
              return (
                <li key={`${e.election}-${e.date ?? ""}-${i}`} data-testid="voters.election">
                  <Text as="div" size="2" weight="medium">
                    {e.election}
                  </Text>
                  {details.length > 0 && (
                    <Text as="div" size="1" color="gray">
                      {details.join(" · ")}
                    </Text>
                  )}
                </li>
              );
            })}
          </ul>
        </Flex>
      )}
    </Card>
  );
}
