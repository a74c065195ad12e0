import { Button, Card, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { errorMessage, toast } from "@/ui/toast";
import type { MapOverview } from "../hooks/useMapData";

type Props = {
  tiles: MapOverview["tiles"];
  setTiles(args: { url: string; attribution: string }): Promise<null>;
};

/** The raster tile source every map of the organisation draws under its data (empty: none). */
export function TileSourceSection({ tiles, setTiles }: Props) {
  const [url, setUrl] = useState(tiles?.url ?? "");
  const [attribution, setAttribution] = useState(tiles?.attribution ?? "");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const changed = url !== (tiles?.url ?? "") || attribution !== (tiles?.attribution ?? "");

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await setTiles({ url, attribution });
      toast.success(url.trim() ? "Tile source saved" : "Tile source removed");
    } catch (e) {
      setError(errorMessage(e));
      toast.failure("Save failed", e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card size="3" data-testid="mapData.tiles">
      <Heading as="h2" size="4" mb="1">
        Tile source
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        A raster tile service drawn under every map of your organization (a URL with {"{z}"}, {"{x}"} and {"{y}"}).
        Leave the URL empty to draw your map data only.
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Flex direction="column" gap="3">
          <Flex asChild direction="column" gap="1">
            <label>
              <Text size="2" weight="medium">
                Tile URL template
              </Text>
              <TextField.Root
                value={url}
                placeholder="https://tiles.example.org/{z}/{x}/{y}.png"
                maxLength={500}
                onChange={(e) => setUrl(e.target.value)}
              />
            </label>
          </Flex>
          <Flex asChild direction="column" gap="1">
            <label>
              <Text size="2" weight="medium">
                Attribution
              </Text>
              <TextField.Root
                value={attribution}
                placeholder="© OpenStreetMap contributors"
                maxLength={300}
                onChange={(e) => setAttribution(e.target.value)}
              />
            </label>
          </Flex>
          {error && (
            <Text size="2" color="red" role="alert" data-testid="mapData.tiles.error">
              {error}
            </Text>
          )}
          <Flex justify="end">
            <Button type="submit" loading={saving} disabled={!changed}>
              Save tile source
            </Button>
          </Flex>
        </Flex>
      </form>
    </Card>
  );
}
