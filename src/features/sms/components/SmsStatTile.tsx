import { Card, Flex, Skeleton, Text } from "@radix-ui/themes";

type SmsStatTileProps = { label: string; value: number | string | undefined; hint?: string };

export function SmsStatTile({ label, value, hint }: SmsStatTileProps) {
  return (
    <Card size="2">
      <Flex direction="column" gap="1">
        <Text size="2" color="gray">{label}</Text>
        <Skeleton loading={value === undefined}>
          <Text size="7" weight="bold" data-testid={`sms.stat.${label}`}>{typeof value === "number" ? value.toLocaleString() : (value ?? "0")}</Text>
        </Skeleton>
        {hint && <Text size="1" color="gray">{hint}</Text>}
      </Flex>
    </Card>
  );
}
