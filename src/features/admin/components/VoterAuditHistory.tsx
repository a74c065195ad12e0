import { Button, Card, Flex, Heading, Link as RadixLink, Skeleton, Text } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { useViewer } from "@/session/ViewerProvider";
import { ROUTES } from "@/lib/routes";
import { useVoterAuditHistory } from "../hooks/useAuditLog";
import { actorText, auditActionLabel, auditTime } from "../utils/auditDisplay";

type VoterAuditHistoryProps = { voterId: Id<"voters">; voterName: string };

/**
 * A voter's page, for holders of audit.view: who saw, changed or exported this person, where the
 * audit log recorded it (audit.forVoter: entries whose target is this voter), newest first, live.
 */
export function VoterAuditHistory({ voterId, voterName }: VoterAuditHistoryProps) {
  const { can } = useViewer();
  const allowed = can("audit.view");
  const { entries, canLoadMore, loadMore } = useVoterAuditHistory(voterId, allowed);
  if (!allowed) return null;
  const inLog = new URLSearchParams({ target: voterId, targetName: voterName });
  return (
    <Card data-testid="voters.auditHistory">
      <Heading as="h2" size="4">
        Audit History
      </Heading>
      <Text as="p" size="2" color="gray" mb="2">
        Who saw, changed, exported this person.
      </Text>
      {entries === undefined ? (
        <Skeleton height="60px" />
      ) : entries.length === 0 ? (
        <Text size="2" color="gray">
          The audit log has no entries about this person.
        </Text>
      ) : (
        <Flex direction="column" gap="3" asChild>
          <ol style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Audit history">
            {entries.map((e) => (
              <li key={e._id} data-testid="voters.auditHistory.row">
                <Text as="div" size="1" color="gray">
                  {auditTime(e.at)} ·{" "}
                  <Text weight="medium" highContrast>
                    {actorText(e)}
                  </Text>{" "}
                  · {auditActionLabel(e.action)}
                </Text>
                <Text as="div" size="2" style={{ overflowWrap: "anywhere" }}>
                  {e.summary}
                </Text>
              </li>
            ))}
          </ol>
        </Flex>
      )}
      <Flex gap="3" mt="2" align="center" wrap="wrap">
        {canLoadMore && (
          <Button size="1" variant="soft" onClick={loadMore}>
            Show more
          </Button>
        )}
        <RadixLink asChild size="2">
          <Link to={`${ROUTES.auditLog}?${inLog.toString()}`}>Open in the audit log</Link>
        </RadixLink>
      </Flex>
    </Card>
  );
}
