import { Box, Card, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import type { QuestionSummary } from "../utils/summary";

function Bar({ label, count, max }: { label: string; count: number; max: number }) {
  return (
    <Flex align="center" gap="2">
      <Text size="1" style={{ width: 90, flexShrink: 0 }} truncate>
        {label}
      </Text>
      <Box flexGrow="1" style={{ background: "var(--gray-a3)", borderRadius: 4, height: 10 }}>
        <Box
          style={{
            width: `${max ? (count / max) * 100 : 0}%`,
            background: "var(--accent-9)",
            borderRadius: 4,
            height: 10,
          }}
        />
      </Box>
      <Text size="1" style={{ width: 32, textAlign: "right" }}>
        {count}
      </Text>
    </Flex>
  );
}

/** Per question: counts per option, average rating with its distribution, slider histogram, number average. */
export function SurveySummary({ summary, sampled }: { summary: QuestionSummary[]; sampled: boolean }) {
  if (summary.length === 0) return null;
  return (
    <Box>
      <Heading as="h3" size="3" mb="2">
        Summary
      </Heading>
      {sampled && (
        <Text as="p" size="1" color="gray" mb="2">
          Based on the latest 2,000 responses.
        </Text>
      )}
      <Grid columns={{ initial: "1", md: "2" }} gap="3" data-testid="survey.summary">
        {summary.map((s) => {
          const rows =
            s.kind === "options" || s.kind === "rating"
              ? s.counts.map((c) => ({ label: c.option, count: c.count }))
              : s.kind === "histogram"
                ? s.buckets.map((b) => ({ label: `${Math.round(b.from)}–${Math.round(b.to)}`, count: b.count }))
                : [];
          const max = Math.max(0, ...rows.map((r) => r.count));
          return (
            <Card key={s.field.id}>
              <Text as="p" size="2" weight="medium">
                {s.field.label}
              </Text>
              <Text as="p" size="1" color="gray" mb="2">
                {s.answered} {s.answered === 1 ? "answer" : "answers"}
                {(s.kind === "rating" || s.kind === "histogram" || s.kind === "number") &&
                  s.average !== null &&
                  ` · average ${s.average.toFixed(1)}`}
              </Text>
              <Flex direction="column" gap="1">
                {rows.map((r) => (
                  <Bar key={r.label} label={r.label} count={r.count} max={max} />
                ))}
              </Flex>
            </Card>
          );
        })}
      </Grid>
    </Box>
  );
}
