import { Badge, Button, Card, Flex, Heading, Skeleton, Text } from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { useViewer } from "@/session/ViewerProvider";
import { toast } from "@/ui/toast";
import { formatTime } from "../utils/smsDisplay";
import { SmsStatusBadge } from "./SmsStatusBadge";

type VoterSmsHistoryProps = { voterId: Id<"voters">; hasPhone: boolean };

/** A voter's text messages (contact history), whether their number opted out of SMS, and opting it out or back in by hand. */
export function VoterSmsHistory({ voterId, hasPhone }: VoterSmsHistoryProps) {
  const { can } = useViewer();
  const data = useQuery(api.sms.voterHistory, { voterId });
  const setOptOut = useMutation(api.sms.setOptOut);
  const [busy, setBusy] = useState(false);

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
          <Heading size="4" as="h2">Text Messages</Heading>
          {data?.optedOut && <Badge color="red" data-testid="voters.smsOptedOut">Opted out of SMS</Badge>}
        </Flex>
        {can("messaging.send") && hasPhone && data && (
          <Button size="1" variant="soft" color={data.optedOut ? "gray" : "red"} loading={busy} onClick={() => void handleOptOut(!data.optedOut)}>
            {data.optedOut ? "Opt back in" : "Opt out of SMS"}
          </Button>
        )}
      </Flex>
      {data?.optedOut && (
        <Text as="p" size="1" color="gray" mb="2">
          Since {formatTime(data.optedOut.at)} ({data.optedOut.source === "inbound" ? "replied STOP" : data.optedOut.source === "provider" ? "reported by Twilio" : "set by a teammate"}); no campaign or quick send texts this number.
        </Text>
      )}
      {data === undefined ? (
        <Skeleton height="60px" />
      ) : data.messages.length === 0 ? (
        <Text size="2" color="gray">No text messages yet.</Text>
      ) : (
        <Flex direction="column" gap="3" style={{ maxHeight: 320, overflowY: "auto" }} tabIndex={0} aria-label="Text messages">
          {data.messages.map((m) => (
            <Flex key={m.id} direction="column" gap="1">
              <Flex justify="between" align="center" gap="2">
                <Text size="1" color="gray">{formatTime(m.sentAt ?? m.queuedAt)} · {m.phone}</Text>
                <SmsStatusBadge status={m.status} />
              </Flex>
              <Text size="2" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>{m.body}</Text>
              {m.error && <Text size="1" color="red">{m.error}</Text>}
            </Flex>
          ))}
        </Flex>
      )}
    </Card>
  );
}
