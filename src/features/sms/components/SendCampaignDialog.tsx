import { PaperPlaneIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Callout, Card, Dialog, Flex, Heading, Text } from "@radix-ui/themes";
import type { Id } from "@convex/_generated/dataModel";
import { segmentInfo } from "@convex/lib/sms/rules";
import type { SmsCampaign } from "../hooks/useSmsCampaigns";
import { useSmsSend } from "../hooks/useSmsSend";
import { AudienceSummary } from "./AudienceSummary";
import { OptOutExceptionDialog } from "./OptOutExceptionDialog";

type SendCampaignDialogProps = {
  campaign: SmsCampaign;
  onOpenChange(open: boolean): void;
  demo: boolean;
  segmentsPerSecond: number | undefined;
  onStarted(sendId: Id<"smsSends">): void;
};

/** Send Campaign: what goes out, to whom, how long it takes; then the server queues it. */
export function SendCampaignDialog({
  campaign,
  onOpenChange,
  demo,
  segmentsPerSecond,
  onStarted,
}: SendCampaignDialogProps) {
  const send = useSmsSend((id) => {
    onStarted(id);
    onOpenChange(false);
  });
  const info = segmentInfo(campaign.body);
  const running = campaign.lastSend && ["preparing", "sending", "paused"].includes(campaign.lastSend.status);
  return (
    <Dialog.Root open onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="560px" aria-describedby={undefined}>
        <Dialog.Title>Send Campaign</Dialog.Title>
        <Flex direction="column" gap="3">
          <Box>
            <Text as="div" weight="bold">
              {campaign.name}
            </Text>
            {campaign.description && (
              <Text as="div" size="2" color="gray">
                {campaign.description}
              </Text>
            )}
          </Box>
          {demo && (
            <Callout.Root color="purple" size="1">
              <Callout.Text>
                <Badge color="purple">DEMO MODE</Badge> No text leaves the server: messages are recorded with the status
                “demo”.
              </Callout.Text>
            </Callout.Root>
          )}
          <Card variant="surface">
            <Text as="p" size="2" style={{ whiteSpace: "pre-wrap" }}>
              {campaign.body || <Text color="gray">(no message)</Text>}
            </Text>
            <Text as="p" size="1" color="gray" mt="1">
              {info.characters} characters · {info.segments} {info.segments === 1 ? "segment" : "segments"} ·{" "}
              {info.encoding}
            </Text>
          </Card>
          <Heading size="3" as="h3">
            Summary
          </Heading>
          <AudienceSummary
            groupIds={campaign.voterGroups}
            voterIds={campaign.individualVoters}
            body={campaign.body}
            segmentsPerSecond={segmentsPerSecond}
          />
          {running && (
            <Callout.Root color="amber" size="1">
              <Callout.Text>This campaign is being sent. Pause or cancel that send first.</Callout.Text>
            </Callout.Root>
          )}
        </Flex>
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={send.busy} disabled={!!running} onClick={() => void send.start({ campaignId: campaign.id })}>
            <PaperPlaneIcon /> Send Campaign
          </Button>
        </Flex>
        <OptOutExceptionDialog
          message={send.pending?.message ?? null}
          busy={send.busy}
          onConfirm={() => void send.confirmException()}
          onCancel={send.dismissException}
        />
      </Dialog.Content>
    </Dialog.Root>
  );
}
