import { PauseIcon, PlayIcon, StopIcon } from "@radix-ui/react-icons";
import { Badge, Button, Callout, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { useSendControls } from "../hooks/useSendControls";
import { SEND_STATUS_COLORS, sendTotals, sendWaitLine, type SendProgress } from "../utils/smsDisplay";
import { SendProgressBar } from "./SendProgressBar";

type ActiveSendsProps = {
  sends: SendProgress[];
  /** campaign names by id, for the title */
  names: Map<string, string>;
  canSend: boolean;
  /** the organisation's time zone (its sending hours'), for "held until 9:00" */
  timeZone?: string;
};

/** The sends still running (any teammate's), live: progress, counts, ETA; pause, resume and cancel. */
export function ActiveSends({ sends, names, canSend, timeZone }: ActiveSendsProps) {
  const controls = useSendControls();
  const [cancelling, setCancelling] = useState<Id<"smsSends"> | null>(null);
  if (sends.length === 0) return null;
  return (
    <Flex direction="column" gap="3" mb="4" data-testid="sms.activeSends">
      {sends.map((s) => {
        const t = sendTotals(s);
        const wait = sendWaitLine(s, timeZone);
        const held = s.status === "sending" && s.heldUntil !== null;
        const title = s.campaignId ? (names.get(s.campaignId) ?? "Campaign") : "Quick send";
        return (
          <Card key={s.id} size="2" data-testid="sms.activeSend">
            <Flex justify="between" align="center" wrap="wrap" gap="2" mb="2">
              <Flex align="center" gap="2" wrap="wrap">
                <Heading size="3" as="h2">
                  {title}
                </Heading>
                <Badge color={held ? "amber" : SEND_STATUS_COLORS[s.status]}>{held ? "held" : s.status}</Badge>
                {s.demo && <Badge color="purple">DEMO MODE</Badge>}
              </Flex>
              {canSend && (
                <Flex gap="2">
                  {s.status === "paused" ? (
                    <Button size="1" variant="soft" onClick={() => void controls.resume(s.id)}>
                      <PlayIcon /> Resume
                    </Button>
                  ) : (
                    <Button size="1" variant="soft" color="orange" onClick={() => void controls.pause(s.id)}>
                      <PauseIcon /> Pause
                    </Button>
                  )}
                  <Button size="1" variant="soft" color="red" onClick={() => setCancelling(s.id)}>
                    <StopIcon /> Cancel
                  </Button>
                </Flex>
              )}
            </Flex>
            <SendProgressBar progress={s} label={`Progress of ${title}`} />
            {wait && (held || s.status === "paused") && (
              <Callout.Root color={held ? "amber" : "orange"} size="1" mt="2" data-testid="sms.activeSend.wait">
                <Callout.Text>{wait.charAt(0).toUpperCase() + wait.slice(1)}</Callout.Text>
              </Callout.Root>
            )}
            <Text as="p" size="1" color="gray" mt="2">
              {s.preparing ? "Preparing recipients… " : ""}
              {t.settled.toLocaleString()} of {t.total.toLocaleString()} · {t.ok.toLocaleString()} sent ·{" "}
              {t.failed.toLocaleString()} failed
              {s.counts.optedOut > 0 ? ` · ${s.counts.optedOut.toLocaleString()} opted out skipped` : ""}
              {wait && !held && s.status !== "paused" ? ` · ${wait}` : ""}
              {` · started by ${s.createdByName}`}
            </Text>
          </Card>
        );
      })}
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(o) => !o && setCancelling(null)}
        title="Cancel this send?"
        description="Messages not yet handed to the provider are cancelled. Messages already sent stay sent."
        confirmLabel="Cancel Send"
        onConfirm={() => {
          if (cancelling) void controls.cancel(cancelling);
          setCancelling(null);
        }}
      />
    </Flex>
  );
}
