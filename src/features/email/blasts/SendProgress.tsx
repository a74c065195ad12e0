import { ExclamationTriangleIcon, PauseIcon, PlayIcon, StopIcon } from "@radix-ui/react-icons";
import { Badge, Button, Callout, Card, DataList, Flex, Heading, Progress, Text } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { SEND_STATUS_COLORS } from "@/lib/sendStatus";
import { isActive, progressPercent } from "./stats/progressModel";
import { useBlastControls } from "../hooks/useBlastControls";
import { useBlastProgress } from "../hooks/useBlastStatistics";

type SendProgressProps = { campaignId: Id<"emailCampaigns"> };

/** The campaign's latest send, live: status, progress, counts, the provider's error; pause, resume and cancel (campaigns.manage). */
export function SendProgress({ campaignId }: SendProgressProps) {
  const { progress } = useBlastProgress(campaignId);
  const { can } = useViewer();
  const { run } = useBlastControls();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!progress) return null;

  const p = progress;
  const c = p.counts;
  const percent = progressPercent(p);
  const canControl = can("campaigns.manage") && isActive(p.status);
  const act = async (action: "pause" | "resume" | "cancel") => {
    setBusy(true);
    await run(p.sendId, action);
    setBusy(false);
  };
  const count = (label: string, n: number, testId: string) => (
    <DataList.Item>
      <DataList.Label minWidth="0">{label}</DataList.Label>
      <DataList.Value data-testid={testId}>{n.toLocaleString("en-US")}</DataList.Value>
    </DataList.Item>
  );

  return (
    <Card size="2" data-testid="email.sendProgress">
      <Flex justify="between" align="center" wrap="wrap" gap="2" mb="2">
        <Flex align="center" gap="2" wrap="wrap">
          <Heading size="3" as="h2">
            {p.kind === "automation" ? "Automated sends" : "Send progress"}
          </Heading>
          <Badge color={SEND_STATUS_COLORS[p.status]} data-testid="email.sendProgress.status">
            {p.status}
          </Badge>
          {p.demo && (
            <Badge color="purple" data-testid="email.sendProgress.demo">
              DEMO MODE
            </Badge>
          )}
        </Flex>
        {canControl && (
          <Flex gap="2">
            {p.status === "paused" ? (
              <Button size="1" variant="soft" disabled={busy} onClick={() => void act("resume")}>
                <PlayIcon /> Resume
              </Button>
            ) : (
              <Button size="1" variant="soft" color="orange" disabled={busy} onClick={() => void act("pause")}>
                <PauseIcon /> Pause
              </Button>
            )}
            <Button size="1" variant="soft" color="red" disabled={busy} onClick={() => setConfirming(true)}>
              <StopIcon /> Cancel
            </Button>
          </Flex>
        )}
      </Flex>
      <Flex align="center" gap="3">
        <Progress
          value={percent}
          max={100}
          aria-label="Email send progress"
          style={{ flex: 1 }}
          color={p.status === "paused" ? "orange" : undefined}
        />
        <Text
          size="2"
          weight="medium"
          data-testid="email.sendProgress.percent"
          style={{ minWidth: 44, textAlign: "right" }}
        >
          {percent}%
        </Text>
      </Flex>
      <Text as="p" size="1" color="gray" mt="2">
        {p.status === "preparing" ? "Preparing recipients… " : ""}
        {p.recipients.toLocaleString("en-US")} recipients · started by {p.createdByName}
        {p.finishedAt ? ` · finished ${new Date(p.finishedAt).toLocaleString()}` : ""}
      </Text>
      {p.error && (
        <Callout.Root color="red" size="1" mt="2" data-testid="email.sendProgress.error">
          <Callout.Icon>
            <ExclamationTriangleIcon />
          </Callout.Icon>
          <Callout.Text>
            {p.status === "paused" ? "Paused by the provider: " : ""}
            {p.error}
          </Callout.Text>
        </Callout.Root>
      )}
      <DataList.Root orientation="horizontal" size="1" mt="3">
        {count("Queued", c.queued, "email.sendProgress.queued")}
        {count("Sent", c.sent, "email.sendProgress.sent")}
        {count("Failed", c.failed, "email.sendProgress.failed")}
        {count("Suppressed (unsubscribed, bounced or complained)", c.suppressed, "email.sendProgress.suppressed")}
        {count("Duplicates skipped", c.duplicates, "email.sendProgress.duplicates")}
        {count("No email address", c.noEmail, "email.sendProgress.noEmail")}
        {c.cancelled > 0 && count("Cancelled", c.cancelled, "email.sendProgress.cancelled")}
      </DataList.Root>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Cancel this send?"
        description="Emails not yet handed to the provider are cancelled. Emails already sent stay sent."
        confirmLabel="Cancel Send"
        onConfirm={() => {
          setConfirming(false);
          void act("cancel");
        }}
      />
    </Card>
  );
}
