import { Box, Card, Flex, ScrollArea, Text } from "@radix-ui/themes";
import type { Id } from "@convex/_generated/dataModel";
import type { SignMapData } from "../hooks/useSignMap";
import { SignStatusBadge } from "./SignStatusBadge";

/** The list beside the map leaves out signs beyond this many (zooming in narrows it). */
const LIST_LIMIT = 300;

/** The signs in the map's view (scrolls at 450 px); a click opens the sign's info window. */
export function SignSideList({
  data,
  selectedId,
  onSelect,
}: {
  data: SignMapData | undefined;
  selectedId: Id<"signs"> | null;
  onSelect(id: Id<"signs">, lat: number, lng: number): void;
}) {
  const points = data ? [...data.points].sort((a, b) => a.address.localeCompare(b.address)) : [];
  return (
    <Card style={{ height: "100%" }}>
      <Text as="div" size="2" weight="bold" mb="2" role="status" data-testid="signs.inView">
        {data === undefined
          ? "Loading signs…"
          : `${data.inView.toLocaleString("en-US")} ${data.inView === 1 ? "sign" : "signs"} in view`}
      </Text>
      <ScrollArea type="auto" scrollbars="vertical" style={{ maxHeight: 450 }}>
        {data && data.points.length === 0 && data.cells.length > 0 && (
          <Text as="p" size="2" color="gray">
            Zoom in to list them one by one.
          </Text>
        )}
        {data && data.inView === 0 && (
          <Text as="p" size="2" color="gray">
            No signs here. Move the map or add a sign location.
          </Text>
        )}
        <Flex direction="column" gap="1" asChild>
          <ul aria-label="Signs in view" style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {points.slice(0, LIST_LIMIT).map((p) => (
              <li key={p.id}>
                <Box
                  asChild
                  p="2"
                  style={{
                    width: "100%",
                    textAlign: "left",
                    borderRadius: "var(--radius-2)",
                    background: p.id === selectedId ? "var(--accent-a3)" : "transparent",
                    border: "1px solid var(--gray-a4)",
                    cursor: "pointer",
                  }}
                >
                  <button type="button" onClick={() => onSelect(p.id, p.lat, p.lng)} data-testid="signs.listItem">
                    <Flex justify="between" gap="2" align="start">
                      <Box>
                        <Text as="div" size="2" weight="medium">
                          {p.address}
                        </Text>
                        <Text as="div" size="1" color="gray">
                          {p.campaignName}
                        </Text>
                      </Box>
                      <Box flexShrink="0">
                        <SignStatusBadge status={p.status} pickupDue={p.pickupDue} />
                      </Box>
                    </Flex>
                  </button>
                </Box>
              </li>
            ))}
          </ul>
        </Flex>
        {points.length > LIST_LIMIT && (
          <Text as="p" size="1" color="gray" mt="2">
            and {(points.length - LIST_LIMIT).toLocaleString("en-US")} more: zoom in to see them.
          </Text>
        )}
      </ScrollArea>
    </Card>
  );
}
