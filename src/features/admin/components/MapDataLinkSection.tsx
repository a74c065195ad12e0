import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import { ROUTES } from "@/lib/routes";

/** Account Settings → Map data: where the organisation's streets, boundaries and tile source are managed. */
export function MapDataLinkSection() {
  return (
    <Card size="3" data-testid="admin.mapData">
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Flex direction="column" gap="1">
          <Heading as="h2" size="4">
            Map data
          </Heading>
          <Text size="2" color="gray">
            Streets, district boundaries and the tile source of every map; voters placed at their addresses.
          </Text>
        </Flex>
        <Button asChild variant="soft">
          <Link to={ROUTES.mapData}>Manage map data</Link>
        </Button>
      </Flex>
    </Card>
  );
}
