import { Badge, Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { formatDateTime } from "@/lib/dateTime";
import type { MapLayerView } from "../hooks/useMapData";
import { countsText, formatBytes, KIND_LABELS, sourceLabel, statusText } from "../utils/layerDisplay";

type Props = {
  layers: MapLayerView[];
  busy: boolean;
  onReplace(layer: MapLayerView): void;
  onDelete(layer: MapLayerView): void;
};

/** The organisation's layers, newest first: what each is, how far it loaded, who added it; Replace and Delete. */
export function LayerList({ layers, busy, onReplace, onDelete }: Props) {
  if (layers.length === 0)
    return (
      <Text as="p" size="2" color="gray" data-testid="mapData.empty">
        No map data yet. Add a TIGER/Line streets zip (EDGES or ADDRFEAT) for streets on every map and addresses placed
        on them, and boundary files (VTD, SLDU, SLDL, CD, COUNTY, PLACE or your own) for districts.
      </Text>
    );
  return (
    <Flex direction="column" gap="3" asChild>
      <ul aria-label="Map layers" style={{ listStyle: "none", margin: 0, padding: 0 }}>
        {layers.map((layer) => {
          const source = sourceLabel(layer.tigerLayer);
          const counts = countsText(layer);
          const status = statusText(layer);
          return (
            <li key={layer.id} data-testid="mapData.layer">
              <Card size="2">
                <Flex direction={{ initial: "column", sm: "row" }} gap="3" justify="between">
                  <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
                    <Heading as="h3" size="3" style={{ overflowWrap: "anywhere" }} data-testid="mapData.layer.name">
                      {layer.name}
                    </Heading>
                    <Flex gap="2" wrap="wrap">
                      <Badge color="indigo">{KIND_LABELS[layer.kind]}</Badge>
                      {source && <Badge color="gray">{source}</Badge>}
                      <Badge color={layer.status === "ready" ? "green" : "amber"} data-testid="mapData.layer.status">
                        {status}
                      </Badge>
                    </Flex>
                    {counts && (
                      <Text size="2" data-testid="mapData.layer.counts">
                        {counts}
                      </Text>
                    )}
                    <Text size="1" color="gray" style={{ overflowWrap: "anywhere" }}>
                      {layer.fileName} ({formatBytes(layer.size)}) · added by {layer.createdByName} on{" "}
                      {formatDateTime(layer.createdAt)}
                    </Text>
                  </Flex>
                  <Flex gap="2" align="start" wrap="wrap">
                    {layer.status === "ready" && (
                      <Button
                        variant="soft"
                        disabled={busy}
                        onClick={() => onReplace(layer)}
                        aria-label={`Replace ${layer.name}`}
                      >
                        Replace
                      </Button>
                    )}
                    <Button
                      variant="soft"
                      color="red"
                      disabled={busy}
                      onClick={() => onDelete(layer)}
                      aria-label={`Delete ${layer.name}`}
                    >
                      Delete
                    </Button>
                  </Flex>
                </Flex>
              </Card>
            </li>
          );
        })}
      </ul>
    </Flex>
  );
}
