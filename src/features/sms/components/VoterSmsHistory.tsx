import { Badge, Button, Card, Flex, Heading, Skeleton, Text } from "@radix-ui/themes";
import { useMemo, useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { useViewer } from "@/session/ViewerProvider";
import { toast } from "@/ui/toast";
import { useVoterSmsHistory } from "../hooks/useVoterSmsHistory";
import { formatTime, optOutSource } from "../utils/smsDisplay";
import { SmsStatusBadge } from "./SmsStatusBadge";

type VoterSmsHistoryProps = { voterId: Id<"voters">; hasPhone: boolean };

/** A voter's text messages (contact history) with their replies, whether their number opted out of SMS, and opting it out or back in by hand. */
export function VoterSmsHistory({ voterId, hasPhone }: VoterSmsHistoryProps) {
  const { can } = useViewer();
  const { data, setOptOut } = useVoterSmsHistory(voterId);
  const [busy, setBusy] = useState(false);
  // the texts sent and the voter's replies, newest first
  const timeline = useMemo(() => {
    if (!data) return [];
    const items = [
      ...data.messages.map((message) => ({ kind: "sent" as const, at: message.sentAt ?? message.queuedAt, message })),
      ...data.replies.map((reply) => ({ kind: "reply" as const, at: reply.at, reply })),
    ];
    return items.sort((a, b) => b.at - a.at);
  }, [data]);

  const handleOptOut = async (optedOut: boolean) => {
    setBusy(true);
    try {
      await setOptOut({ voterId, optedOut });
      toast.success(optedOut ? "Opted out of SMS" : "Opted back in to SMS");
    } catch (e) {
      toast.failure("Error updating SMS opt-out", e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="voters.smsHistory">
      <Flex justify="between" align="center" gap="2" wrap="wrap" mb="2">
        <Flex align="center" gap="2" wrap="wrap">
          <Heading size="4" as="h2">
            Text Messages
          </Heading>
          {data?.optedOut && (
            <Badge color="red" data-testid="voters.smsOptedOut">
              Opted out of SMS
            </Badge>
          )}
        </Flex>
        {can("messaging.send") && hasPhone && data && (
          <Button
            size="1"
            variant="soft"
            color={data.optedOut ? "gray" : "red"}
            loading={busy}
            onClick={() => void handleOptOut(!data.optedOut)}
          >
            {data.optedOut ? "Opt back in" : "Opt out of SMS"}
          </Button>
        )}
      </Flex>
      {data?.optedOut && (
        <Text as="p" size="1" color="gray" mb="2">
          Since {formatTime(data.optedOut.at)} ({optOutSource(data.optedOut.source)}); no campaign or quick send texts
          this number.
        </Text>
      )}
      {data === undefined ? (
        <Skeleton height="60px" />
      ) : timeline.length === 0 ? (
        <Text size="2" color="gray">
          No text messages yet.
        </Text>
      ) : (
        <Flex
          direction="column"
          gap="3"
          style={{ maxHeight: 320, overflowY: "auto" }}
          tabIndex={0}
          aria-label="Text messages"
        >
          {timeline.map((item) =>
            item.kind === "reply" ? (
              <Flex
                key={item.reply.id}
                direction="column"
                gap="1"
                pl="3"
                style={{ borderLeft: "3px solid var(--accent-8)" }}
                data-testid="voters.smsReply"
              >
                <Flex justify="between" align="center" gap="2">
                  <Text size="1" color="gray">
                    {formatTime(item.reply.at)}
                  </Text>
                  <Badge color="cyan">Reply</Badge>
                </Flex>
                <Text size="2" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
                  {item.reply.body}
                </Text>
              </Flex>
            ) : (
              <Flex key={item.message.id} direction="column" gap="1">
                <Flex justify="between" align="center" gap="2">
                  <Text size="1" color="gray">
                    {formatTime(item.message.sentAt ?? item.message.queuedAt)}
                    {item.message.phone !== null && ` · ${item.message.phone}`}
                  </Text>
                  <SmsStatusBadge status={item.message.status} />
                </Flex>
                <Text size="2" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
                  {item.message.body}
                </Text>
                {item.message.error && (
                  <Text size="1" color="red">
                    {item.message.error}
                  </Text>
                )}
              </Flex>
            ),
          )}
        </Flex>
      )}
    </Card>
  );
}
