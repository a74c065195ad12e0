import { Button, Callout, Flex } from "@radix-ui/themes";
import { formatLocal } from "./automationForm";

type SendStatusPanelProps = {
  status: string;
  scheduledAt: number | null;
  sentAt: number | null;
  canManage: boolean;
  rescheduling: boolean;
  onReschedule(): void;
  onCancelSchedule(): void;
  onStopAutomation(): void;
};

/** Where the campaign stands: scheduled (reschedule, cancel), an active automation (stop), or sent. */
export function SendStatusPanel(props: SendStatusPanelProps) {
  const { status, scheduledAt, sentAt, canManage } = props;
  if (status === "scheduled") {
    return (
      <Flex direction="column" gap="2" data-testid="email.status.scheduled">
        <Callout.Root color="blue">
          <Callout.Text>
            Scheduled for {scheduledAt === null ? "a time not set" : formatLocal(scheduledAt)}
          </Callout.Text>
        </Callout.Root>
        {canManage && (
          <Flex gap="2" wrap="wrap">
            {!props.rescheduling && (
              <Button size="1" variant="soft" onClick={props.onReschedule}>
                Reschedule
              </Button>
            )}
            <Button size="1" variant="soft" color="red" onClick={props.onCancelSchedule}>
              Cancel schedule
            </Button>
          </Flex>
        )}
      </Flex>
    );
  }
  if (status === "automated") {
    return (
      <Flex direction="column" gap="2" data-testid="email.status.automated">
        <Callout.Root color="green">
          <Callout.Text>Automation active: matching voters are sent this campaign as they come.</Callout.Text>
        </Callout.Root>
        {canManage && (
          <Flex gap="2">
            <Button size="1" variant="soft" color="red" onClick={props.onStopAutomation}>
              Stop automation
            </Button>
          </Flex>
        )}
      </Flex>
    );
  }
  if (status === "sent") {
    return (
      <Callout.Root color="green" data-testid="email.status.sent">
        <Callout.Text>
          This campaign was sent{sentAt === null ? "" : ` on ${formatLocal(sentAt)}`}. Its results are on the Statistics
          tab.
        </Callout.Text>
      </Callout.Root>
    );
  }
  return null;
}
