import { Badge, Box, Callout, Card, Flex, Grid, Text } from "@radix-ui/themes";
import { ExclamationTriangleIcon, InfoCircledIcon } from "@radix-ui/react-icons";
import { PageHeader } from "@/ui/PageHeader";
import { RoadmapCard } from "./components/RoadmapCard";
import { ROADMAP_ITEMS, ROADMAP_STATUSES, STATUS_COLORS } from "./roadmapItems";
import { ROUTES } from "@/lib/routes";

/** /roadmap (spec/3 §2.16, §3.7). */
export function RoadmapPage() {
  return (
    <Box style={{ maxWidth: 1080 }}>
      <PageHeader
        title="Roadmap"
        description="Upcoming features we are building."
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Roadmap" }]}
      />
      <Callout.Root color="blue" mb="5">
        <Callout.Icon>
          <InfoCircledIcon />
        </Callout.Icon>
        <Callout.Text>
          Our roadmap shows the features we are working on next, how far along they are and when we expect to ship them.
          Priorities follow what campaigns ask for most.
        </Callout.Text>
      </Callout.Root>
      <Grid columns={{ initial: "2", md: "4" }} gap="4" mb="5">
        {ROADMAP_STATUSES.map((status) => (
          <Card key={status}>
            <Flex direction="column" gap="1">
              <Badge color={STATUS_COLORS[status]} style={{ alignSelf: "start" }}>
                {status}
              </Badge>
              <Text size="6" weight="bold" data-testid={`roadmap.count.${status}`}>
                {ROADMAP_ITEMS.filter((i) => i.status === status).length}
              </Text>
            </Flex>
          </Card>
        ))}
      </Grid>
      <Grid columns={{ initial: "1", md: "2" }} gap="4" mb="5">
        {ROADMAP_ITEMS.map((item) => (
          <RoadmapCard key={item.id} item={item} />
        ))}
      </Grid>
      <Callout.Root color="amber">
        <Callout.Icon>
          <ExclamationTriangleIcon />
        </Callout.Icon>
        <Callout.Text>
          Timelines are estimates and may change as development progresses and priorities shift.
        </Callout.Text>
      </Callout.Root>
    </Box>
  );
}
