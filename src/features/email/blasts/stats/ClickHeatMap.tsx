import { Box, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { heatMap, type HeatRow } from "./statsModel";

/** The top 5 click targets (spec §2.2, §9): clicks, a bar relative to the most clicked, share of their clicks. */
export function ClickHeatMap({ links }: { links: { url: string; clicks: number }[] }) {
  const rows = heatMap(links);
  return (
    <Card data-testid="email.stats.heatMap">
      <Heading as="h3" size="3" mb="1">
        Click heat map
      </Heading>
      <Text as="p" size="1" color="gray" mb="3">
        Top 5 click targets; the share is of the clicks on these links.
      </Text>
      {rows.length === 0 ? (
        <Text size="2" color="gray">
          No clicks recorded yet.
        </Text>
      ) : (
        <Flex asChild direction="column" gap="3">
          <ol style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {rows.map((r, i) => (
              <HeatItem key={r.url} row={r} rank={i + 1} />
            ))}
          </ol>
        </Flex>
      )}
    </Card>
  );
}

function HeatItem({ row, rank }: { row: HeatRow; rank: number }) {
  return (
    <li data-testid="email.stats.heatRow">
      <Flex justify="between" gap="2" align="baseline">
        <Text size="2" style={{ overflowWrap: "anywhere", minWidth: 0 }} title={row.url}>
          <Text color="gray">{rank}. </Text>
          {row.url}
        </Text>
        <Text size="2" weight="medium" style={{ whiteSpace: "nowrap" }}>
          {row.clicks.toLocaleString("en-US")} {row.clicks === 1 ? "click" : "clicks"} · {row.share}%
        </Text>
      </Flex>
      <Box mt="1" style={{ height: 8, borderRadius: "var(--radius-2)", background: "var(--gray-a3)" }} aria-hidden>
        <Box
          data-testid="email.stats.heatBar"
          style={{
            width: `${row.barPercent}%`,
            height: "100%",
            borderRadius: "var(--radius-2)",
            background: "var(--accent-9)",
          }}
        />
      </Box>
    </li>
  );
}
