import { TriangleDownIcon, TriangleUpIcon } from "@radix-ui/react-icons";
import { Badge, Card, Flex, Text } from "@radix-ui/themes";
import { THRESHOLDS, type RateFigure } from "./statsModel";

type StatCardProps = {
  label: string;
  value: number;
  /** the rate the value stands for, judged against its threshold (spec §9) */
  figure?: RateFigure;
  /** an estimate (spec §9 fallback): shown with its rate but not judged */
  estimate?: { rate: number };
  testId: string;
};

/** One statistic: the count, and for rates the percent with an up/down mark (icon and words, not colour alone). */
export function StatCard({ label, value, figure, estimate, testId }: StatCardProps) {
  return (
    <Card size="1" data-testid={testId}>
      <Flex direction="column" gap="1">
        <Flex justify="between" align="center" gap="1" wrap="wrap">
          <Text size="2" color="gray" weight="medium">{label}</Text>
          {estimate && <Badge color="gray" variant="outline" size="1">Estimate</Badge>}
        </Flex>
        <Text size="6" weight="bold" data-testid={`${testId}.value`}>
          {estimate ? "≈ " : ""}
          {value.toLocaleString("en-US")}
        </Text>
        {figure && <RateMark figure={figure} />}
        {estimate && (
          <Text size="1" color="gray" data-testid={`${testId}.rate`}>
            {estimate.rate}% (estimated)
          </Text>
        )}
      </Flex>
    </Card>
  );
}

function RateMark({ figure }: { figure: RateFigure }) {
  const t = THRESHOLDS[figure.key];
  const above = figure.rate > t.limit;
  const Icon = above ? TriangleUpIcon : TriangleDownIcon;
  const words = `${above ? "above" : figure.rate === t.limit ? "at" : "below"} ${t.limit}%`;
  const verdict = figure.good ? "on target" : "off target";
  return (
    <Flex align="center" gap="1" data-good={figure.good} data-testid="email.stats.rate">
      <Text size="2" weight="medium" color={figure.good ? "green" : "red"}>
        <Flex align="center" gap="1" asChild>
          <span>
            <Icon aria-hidden />
            {figure.rate}%
          </span>
        </Flex>
      </Text>
      <Text size="1" color="gray">
        {words}, {verdict}
      </Text>
    </Flex>
  );
}
