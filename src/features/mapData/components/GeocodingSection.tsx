import { Button, Card, Flex, Grid, Heading, Progress, Text } from "@radix-ui/themes";
import { useState } from "react";
import { formatDateTime } from "@/lib/dateTime";
import { Loading } from "@/ui/Loading";
import { StatCard } from "@/ui/StatCard";
import { toast } from "@/ui/toast";
import type { GeocodeStatus } from "../hooks/useGeocoding";
import { formatCount, percent, QUALITY_CARDS } from "../utils/layerDisplay";

type Props = {
  status: GeocodeStatus | undefined;
  canRun: boolean;
  run(args: Record<string, never>): Promise<unknown>;
};

/** Where the voter file's geocoding stands (live): progress while a run goes, voters per quality, and running it again. */
export function GeocodingSection({ status, canRun, run }: Props) {
  const [starting, setStarting] = useState(false);
  const r = status?.run ?? null;
  const running = r?.status === "running";

  const start = async () => {
    setStarting(true);
    try {
      await run({});
      toast.success("Geocoding started");
    } catch (e) {
      toast.failure("Geocoding failed", e);
    } finally {
      setStarting(false);
    }
  };

  return (
    <Card size="3" data-testid="mapData.geocoding">
      <Flex justify="between" align="center" gap="3" wrap="wrap" mb="3">
        <Heading as="h2" size="4">
          Voters on the map
        </Heading>
        {canRun && (
          <Button
            variant="soft"
            onClick={() => void start()}
            loading={starting}
            disabled={!status?.hasStreets || running}
          >
            Geocode voters again
          </Button>
        )}
      </Flex>
      {status === undefined ? (
        <Loading label="Loading geocoding status" />
      ) : (
        <Flex direction="column" gap="3">
          <Text size="2" data-testid="mapData.geocoding.status">
            {!status.hasStreets
              ? "No street map yet: add a streets layer to place voters at their addresses."
              : !r
                ? "Voters have not been placed yet."
                : running
                  ? `Placing voters: ${formatCount(r.processed)} of ${formatCount(r.total)}`
                  : r.status === "cancelled"
                    ? `The last run was stopped after ${formatCount(r.processed)} of ${formatCount(r.total)} voters.`
                    : `${formatCount(r.processed)} voters placed${r.finishedAt ? ` on ${formatDateTime(r.finishedAt)}` : ""} (${r.reason}).`}
          </Text>
          {running && r && <Progress value={percent(r.processed, r.total)} aria-label="Voters placed" />}
          {r && (
            <Grid columns={{ initial: "2", sm: "5" }} gap="3">
              {QUALITY_CARDS.map((q) => (
                <StatCard
                  key={q.key}
                  label={q.label}
                  value={r.counts[q.key]}
                  size="1"
                  valueSize="6"
                  testId={`mapData.quality.${q.key}`}
                />
              ))}
            </Grid>
          )}
        </Flex>
      )}
    </Card>
  );
}
