import { CursorArrowIcon, EnvelopeOpenIcon, ExitIcon } from "@radix-ui/react-icons";
import { Badge, Card, Flex, Heading, Link as RadixLink, Skeleton, Text } from "@radix-ui/themes";
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { ROUTES } from "@/lib/routes";
import { useVoterEmailHistory } from "../hooks/useVoterContact";

type EmailStatus = FunctionReturnType<typeof api.emailBlasts.voterHistory>[number]["status"];

const STATUS_COLORS: Record<EmailStatus, "blue" | "green" | "red" | "gray" | "purple" | "orange"> = {
  queued: "blue",
  sending: "blue",
  sent: "green",
  delivered: "green",
  failed: "red",
  bounced: "red",
  complained: "orange",
  cancelled: "gray",
  suppressed: "gray",
  demo: "purple",
};

type VoterEmailHistoryProps = { voterId: Id<"voters"> };

/** The campaign emails sent to a voter (contact history): campaign, subject, delivery status, whether opened, clicked or unsubscribed. */
export function VoterEmailHistory({ voterId }: VoterEmailHistoryProps) {
  const { rows } = useVoterEmailHistory(voterId);
  return (
    <Card data-testid="voters.emailHistory">
      <Heading size="4" as="h2" mb="2">
        Campaign Emails
      </Heading>
      {rows === undefined ? (
        <Skeleton height="60px" />
      ) : rows.length === 0 ? (
        <Text size="2" color="gray">
          No emails sent to this voter yet.
        </Text>
      ) : (
        <Flex asChild direction="column" gap="3" style={{ maxHeight: 320, overflowY: "auto" }}>
          <ul style={{ listStyle: "none", margin: 0, padding: 0 }} tabIndex={0} aria-label="Campaign emails">
            {rows.map((r) => (
              <li key={r.id} data-testid="voters.emailHistory.row">
                <Flex justify="between" align="start" gap="2">
                  <Flex direction="column" gap="0" style={{ minWidth: 0 }}>
                    <RadixLink asChild size="2" weight="medium">
                      <Link to={`${ROUTES.email}?campaign=${r.campaignId}`}>{r.campaignName}</Link>
                    </RadixLink>
                    <Text size="2" style={{ overflowWrap: "anywhere" }}>
                      {r.subject || "No subject"}
                    </Text>
                  </Flex>
                  <Badge color={STATUS_COLORS[r.status] ?? "gray"} size="1">
                    {r.status}
                  </Badge>
                </Flex>
                <Flex gap="2" align="center" wrap="wrap" mt="1">
                  <Text size="1" color="gray">
                    {new Date(r.sentAt ?? r.queuedAt).toLocaleString()}
                  </Text>
                  {r.opened && <Mark icon={<EnvelopeOpenIcon />} label="Opened" color="green" />}
                  {r.clicked && <Mark icon={<CursorArrowIcon />} label="Clicked" color="blue" />}
                  {r.unsubscribed && <Mark icon={<ExitIcon />} label="Unsubscribed" color="red" />}
                </Flex>
              </li>
            ))}
          </ul>
        </Flex>
      )}
    </Card>
  );
}

function Mark({ icon, label, color }: { icon: ReactNode; label: string; color: "green" | "blue" | "red" | "gray" }) {
  return (
    <Badge variant="soft" color={color} size="1" data-testid="voters.emailHistory.mark">
      <Flex asChild align="center" gap="1">
        <span>
          <span aria-hidden style={{ display: "inline-flex" }}>
            {icon}
          </span>
          {label}
        </span>
      </Flex>
    </Badge>
  );
}
