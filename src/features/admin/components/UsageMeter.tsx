import { Flex, Progress, Text } from "@radix-ui/themes";
import { formatLimit, usageColor, usagePercent } from "@convex/lib/plans";

type UsageMeterProps = { label: string; used: number; limit: number; unit?: string; format?(n: number): string };

/** One usage bar: green below 50 %, yellow below 80 %, red above; an unlimited limit shows 0 %. */
export function UsageMeter({
  label,
  used,
  limit,
  unit = "",
  format = (n) => n.toLocaleString("en-US"),
}: UsageMeterProps) {
  const percent = usagePercent(used, limit);
  return (
    <Flex direction="column" gap="1" data-testid={`subscription.usage.${label.toLowerCase()}`}>
      <Flex justify="between">
        <Text size="2" weight="medium">
          {label}
        </Text>
        <Text size="2" color="gray">
          {format(used)}
          {unit} / {formatLimit(limit, unit)} ({percent}%)
        </Text>
      </Flex>
      <Progress value={percent} color={usageColor(percent)} aria-label={`${label} usage`} />
    </Flex>
  );
}
