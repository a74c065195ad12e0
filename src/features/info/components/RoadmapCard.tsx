import { Badge, Card, Flex, Heading, Progress, Text } from "@radix-ui/themes";
import { CalendarIcon, CheckIcon } from "@radix-ui/react-icons";
import { PRIORITY_COLORS, STATUS_COLORS, type RoadmapItem } from "../roadmapItems";

/** One roadmap feature: category, estimate, progress bar and key features. */
export function RoadmapCard({ item }: { item: RoadmapItem }) {
  return (
    <Card size="3" data-testid={`roadmap.item.${item.id}`}>
      <Flex direction="column" gap="3">
        <Flex justify="between" align="start" gap="2" wrap="wrap">
          <Heading size="5">{item.title}</Heading>
          <Flex gap="2">
            <Badge color={STATUS_COLORS[item.status]}>{item.status}</Badge>
            <Badge color={PRIORITY_COLORS[item.priority]} variant="outline">
              {item.priority} Priority
            </Badge>
          </Flex>
        </Flex>
        <Text size="2" color="gray">
          {item.description}
        </Text>
        <Flex gap="4" wrap="wrap">
          <Text size="2">
            <Text weight="medium">Category:</Text> {item.category}
          </Text>
          <Flex align="center" gap="1">
            <CalendarIcon />
            <Text size="2">
              <Text weight="medium">Estimated completion:</Text> {item.estimatedCompletion}
            </Text>
          </Flex>
        </Flex>
        <Flex direction="column" gap="1">
          <Flex justify="between">
            <Text size="2" weight="medium">
              Progress
            </Text>
            <Text size="2" color="gray">
              {item.progress}%
            </Text>
          </Flex>
          <Progress value={item.progress} aria-label={`${item.title} progress`} />
        </Flex>
        <Flex direction="column" gap="1">
          <Text size="2" weight="medium">
            Key features
          </Text>
          {item.details.map((d) => (
            <Flex key={d} gap="2" align="center">
              <CheckIcon color="var(--green-9)" />
              <Text size="2">{d}</Text>
            </Flex>
          ))}
        </Flex>
      </Flex>
    </Card>
  );
}
