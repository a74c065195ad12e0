import { TriangleDownIcon, TriangleUpIcon } from "@radix-ui/react-icons";
import { Badge, Flex, Text } from "@radix-ui/themes";
import { StatCard } from "@/ui/StatCard";
import { THRESHOLDS, type RateFigure } from "./statsModel";

type EmailStatProps = {
  label: string;
  value: number;
  /** the rate the value stands for, judged against its threshold (spec §9) */
  figure?: RateFigure;
  /** an estimate (spec §9 fallback): shown with its rate but not judged */
  estimate?: { rate: number };
  testId: string;
};

/** One email statistic on the shared stat card: the count, and for rates the percent with an up/down mark (icon and words, not colour alone). */
export function EmailStat({ label, value, figure, estimate, testId }: EmailStatProps) {
  return (
    <StatCard
      size="1"
      valueSize="6"
      label={label}
      value={estimate ? `≈ ${value.toLocaleString("en-US")}` : value}
      badge={
        estimate && (
          <Badge color="gray" variant="outline" size="1">
            Estimate
          </Badge>
        )
      }
      testId={testId}
    >
      {figure && <RateMark figure={figure} />}
      {estimate && (
        <Text size="1" color="gray" data-testid={`${testId}.rate`}>
          {estimate.rate}% (estimated)
        </Text>
      )}
    </StatCard>
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
