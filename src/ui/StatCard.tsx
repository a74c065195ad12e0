import { Card, Flex, Skeleton, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";

type StatCardProps = {
  label: string;
  /** undefined while loading (a skeleton); numbers are written with thousands separators */
  value: number | string | undefined;
  icon?: ReactNode;
  /** a badge beside the label ("Estimate") */
  badge?: ReactNode;
  hint?: string;
  /** the screen the figure links to */
  to?: string;
  size?: "1" | "2";
  /** "6" for dense grids, "7" for headline figures */
  valueSize?: "6" | "7";
  /** the card's test id; its value is `${testId}.value` */
  testId?: string;
  /** more under the value (a rate and its verdict) */
  children?: ReactNode;
};

/** One live figure: the dashboard's, the SMS center's, import history's and the email statistics' cards. */
export function StatCard({
  label,
  value,
  icon,
  badge,
  hint,
  to,
  size = "2",
  valueSize = "7",
  testId,
  children,
}: StatCardProps) {
  const shown = typeof value === "number" ? value.toLocaleString("en-US") : (value ?? "0");
  const body = (
    <Flex direction="column" gap="1">
      <Flex justify="between" align="center" gap="1" wrap="wrap">
        <Text size="2" color="gray">
          {label}
        </Text>
        {icon}
        {badge}
      </Flex>
      <Skeleton loading={value === undefined}>
        <Text size={valueSize} weight="bold" data-testid={testId ? `${testId}.value` : undefined}>
          {shown}
        </Text>
      </Skeleton>
      {children}
      {hint && (
        <Text size="1" color="gray">
          {hint}
        </Text>
      )}
    </Flex>
  );
  return (
    <Card
      size={size}
      asChild={Boolean(to)}
      data-testid={testId}
      role={to ? undefined : "group"}
      aria-label={to ? undefined : label}
    >
      {to ? (
        <Link to={to} style={{ textDecoration: "none", color: "inherit" }}>
          {body}
        </Link>
      ) : (
        body
      )}
    </Card>
  );
}
