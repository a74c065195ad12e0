import { Flex, Progress, Text } from "@radix-ui/themes";
import { sendTotals, type SendProgress } from "../utils/smsDisplay";

/** A send's progress as a bar and a percent (messages that left the queue, of all queued). */
export function SendProgressBar({ progress, label = "Sending progress" }: { progress: SendProgress; label?: string }) {
  const t = sendTotals(progress);
  return (
    <Flex align="center" gap="3">
      <Progress
        value={t.percent}
        max={100}
        aria-label={label}
        style={{ flex: 1 }}
        color={progress.status === "paused" ? "orange" : undefined}
      />
      <Text size="2" weight="medium" data-testid="sms.progress.percent" style={{ minWidth: 44, textAlign: "right" }}>
        {t.percent}%
      </Text>
    </Flex>
  );
}
