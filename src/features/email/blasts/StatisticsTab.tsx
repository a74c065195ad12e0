import { InfoCircledIcon } from "@radix-ui/react-icons";
import { Badge, Box, Callout, Card, DataList, Flex, Grid, Heading, Skeleton, Text } from "@radix-ui/themes";
import type { Id } from "@convex/_generated/dataModel";
import { CampaignPreview } from "./stats/CampaignPreview";
import { ClickHeatMap } from "./stats/ClickHeatMap";
import { EmailStat } from "./stats/EmailStat";
import {
  DEMO_LABEL,
  ESTIMATE_LABEL,
  ESTIMATES,
  estimatedCounts,
  measuredRates,
  summarize,
  type BlastStatistics,
} from "./stats/statsModel";
import { useBlastStatistics } from "../hooks/useBlastStatistics";

type StatisticsTabProps = { campaignId: Id<"emailCampaigns"> };

const GRID = { initial: "2", sm: "3", md: "4" } as const;

/**
 * A sent campaign's statistics (spec/2 §2.2, §3, §9), live: cards judged against the thresholds,
 * the click heat map, a summary, the send's facts and the campaign as sent. Until the provider
 * reports a delivery event the delivery figures are the spec's estimates, shown apart and labelled.
 */
export function StatisticsTab({ campaignId }: StatisticsTabProps) {
  const { stats, campaign } = useBlastStatistics(campaignId);
  if (stats === undefined) {
    return (
      <Flex direction="column" gap="3" data-testid="email.stats.loading">
        <Skeleton height="96px" />
        <Skeleton height="240px" />
      </Flex>
    );
  }
  if (stats === null)
    return (
      <Text size="2" color="gray">
        No statistics for this campaign.
      </Text>
    );
  return (
    <Flex direction="column" gap="4" data-testid="email.stats">
      {stats.demo && (
        <Callout.Root color="purple" data-testid="email.stats.demo">
          <Callout.Icon>
            <InfoCircledIcon />
          </Callout.Icon>
          <Callout.Text>{DEMO_LABEL}</Callout.Text>
        </Callout.Root>
      )}
      <StatCards stats={stats} />
      <Grid columns={{ initial: "1", md: "2" }} gap="4">
        <ClickHeatMap links={stats.topLinks} />
        <Flex direction="column" gap="4">
          <Card data-testid="email.stats.summary">
            <Heading as="h3" size="3" mb="2">
              Summary
            </Heading>
            <Text as="p" size="2">
              {summarize(stats)}
            </Text>
          </Card>
          <Card data-testid="email.stats.info">
            <Heading as="h3" size="3" mb="2">
              Campaign info
            </Heading>
            <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }} size="2">
              <DataList.Item>
                <DataList.Label>Sent at</DataList.Label>
                <DataList.Value>{stats.sentAt ? new Date(stats.sentAt).toLocaleString() : "—"}</DataList.Value>
              </DataList.Item>
              <DataList.Item>
                <DataList.Label>Recipients</DataList.Label>
                <DataList.Value>{stats.recipients.toLocaleString("en-US")}</DataList.Value>
              </DataList.Item>
              {stats.failed > 0 && (
                <DataList.Item>
                  <DataList.Label>Failed</DataList.Label>
                  <DataList.Value>{stats.failed.toLocaleString("en-US")}</DataList.Value>
                </DataList.Item>
              )}
              {campaign && (
                <DataList.Item>
                  <DataList.Label>From</DataList.Label>
                  <DataList.Value>
                    <Text style={{ overflowWrap: "anywhere" }}>
                      {campaign.fromName} &lt;{campaign.fromEmail}&gt;
                    </Text>
                  </DataList.Value>
                </DataList.Item>
              )}
              <DataList.Item>
                <DataList.Label>Provider</DataList.Label>
                <DataList.Value>
                  {stats.demo ? <Badge color="purple">{DEMO_LABEL}</Badge> : <Badge color="green">Live</Badge>}
                </DataList.Value>
              </DataList.Item>
            </DataList.Root>
          </Card>
        </Flex>
      </Grid>
      {campaign && (
        <CampaignPreview blocks={campaign.blocks} subject={campaign.subject} previewText={campaign.previewText} />
      )}
    </Flex>
  );
}

/** The counts: measured ones, and (before any event) the estimates in their own labelled group. */
function StatCards({ stats }: { stats: BlastStatistics }) {
  const sent = <EmailStat label="Sent" value={stats.sent} testId="email.stats.sent" />;
  const tail = (
    <>
      <EmailStat label="Unsubscribed" value={stats.unsubscribed} testId="email.stats.unsubscribed" />
      <EmailStat label="Complained" value={stats.complained} testId="email.stats.complained" />
    </>
  );
  if (!stats.hasEvents) {
    const est = estimatedCounts(stats.sent);
    return (
      <Flex direction="column" gap="4">
        <Grid columns={GRID} gap="3" data-testid="email.stats.measured">
          {sent}
          {tail}
        </Grid>
        <Box asChild>
          <section aria-labelledby="email-stats-estimates" data-testid="email.stats.estimates">
            <Heading as="h3" size="3" mb="1" id="email-stats-estimates">
              {ESTIMATE_LABEL}
            </Heading>
            <Text as="p" size="1" color="gray" mb="3">
              These figures are typical rates, not measurements; they are replaced by real ones when the provider
              reports.
            </Text>
            <Grid columns={GRID} gap="3">
              <EmailStat
                label="Delivered"
                value={est.delivered}
                estimate={{ rate: ESTIMATES.delivery }}
                testId="email.stats.delivered"
              />
              <EmailStat
                label="Opened"
                value={est.opened}
                estimate={{ rate: ESTIMATES.open }}
                testId="email.stats.opened"
              />
              <EmailStat
                label="Clicked"
                value={est.clicked}
                estimate={{ rate: ESTIMATES.click }}
                testId="email.stats.clicked"
              />
              <EmailStat
                label="Bounced"
                value={est.bounced}
                estimate={{ rate: ESTIMATES.bounce }}
                testId="email.stats.bounced"
              />
            </Grid>
          </section>
        </Box>
      </Flex>
    );
  }
  const r = measuredRates(stats);
  return (
    <Grid columns={GRID} gap="3" data-testid="email.stats.measured">
      {sent}
      <EmailStat label="Delivered" value={stats.delivered} figure={r.delivery} testId="email.stats.delivered" />
      <EmailStat label="Opened" value={stats.opened} figure={r.open} testId="email.stats.opened" />
      <EmailStat label="Clicked" value={stats.clicked} figure={r.click} testId="email.stats.clicked" />
      <EmailStat label="Bounced" value={stats.bounced} figure={r.bounce} testId="email.stats.bounced" />
      {tail}
    </Grid>
  );
}
