import { Card, Flex, Skeleton, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";

type StatCardProps = { label: string; value: number | undefined; icon: ReactNode; to?: string; hint?: string };

/** One live figure; links to its screen when there is one. */
export function StatCard({ label, value, icon, to, hint }: StatCardProps) {
  const body = (
    <Flex direction="column" gap="1">
      <Flex justify="between" align="center">
        <Text size="2" color="gray">{label}</Text>
        {icon}
      </Flex>
      <Skeleton loading={value === undefined}>
        <Text size="7" weight="bold" data-testid={`dashboard.stat.${label}`}>
          {(value ?? 0).toLocaleString()}
        </Text>
      </Skeleton>
      {hint && <Text size="1" color="gray">{hint}</Text>}
    </Flex>
  );
  return (
    <Card size="2" asChild={Boolean(to)}>
      {to ? <Link to={to} style={{ textDecoration: "none", color: "inherit" }}>{body}</Link> : body}
    </Card>
  );
}
