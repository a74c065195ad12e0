import { UploadIcon } from "@radix-ui/react-icons";
import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useRef, useState, type DragEvent } from "react";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { Loading } from "@/ui/Loading";
import { toast } from "@/ui/toast";
import { useLayerParser } from "../hooks/useLayerParser";
import { useLayerUpload } from "../hooks/useLayerUpload";
import type { MapLayerView, MapOverview } from "../hooks/useMapData";
import { countsText } from "../utils/layerDisplay";
import type { ParsedLayer } from "../worker/parseLayer.worker";
import { LayerList } from "./LayerList";
import { LayerUploadPanel } from "./LayerUploadPanel";

const ACCEPTED_FILES = ".zip,.geojson,.json,.pmtiles";

type Props = {
  overview: MapOverview | undefined;
  remove(args: { layerId: MapLayerView["id"] }): Promise<null>;
};

/**
 * The layers (live) and their upload: a file is parsed in a worker and previewed; only a confirmed
 * preview is uploaded. A refusal midway leaves the layer "loading" in the list, to delete.
 */
export function MapLayersSection({ overview, remove }: Props) {
  const parser = useLayerParser();
  const { upload, progress } = useLayerUpload();
  const input = useRef<HTMLInputElement>(null);
  const [replacing, setReplacing] = useState<MapLayerView | null>(null);
  const [deleting, setDeleting] = useState<MapLayerView | null>(null);
  const [dragging, setDragging] = useState(false);
  const busy = parser.state.status !== "idle";

  const choose = (layer: MapLayerView | null) => {
    setReplacing(layer);
    input.current?.click();
  };
  const start = (file: File | undefined) => {
    if (file) parser.parse(file);
  };
  const cancel = () => {
    parser.reset();
    setReplacing(null);
  };
  const onUpload = async (layer: ParsedLayer, file: File, name: string) => {
    try {
      await upload(layer, file, { name, replaces: replacing?.id ?? null });
      toast.success(replacing ? "Map layer replaced" : "Map data added", {
        description: layer.kind === "streets" ? "Voters are being placed on the new streets." : undefined,
      });
      cancel();
    } catch (e) {
      toast.failure("Upload failed", e);
      cancel();
    }
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (busy) return;
    setReplacing(null);
    start(e.dataTransfer.files[0]);
  };
  const confirmDelete = async () => {
    const layer = deleting;
    setDeleting(null);
    if (!layer) return;
    try {
      await remove({ layerId: layer.id });
      toast.success("Map layer deleted");
    } catch (e) {
      toast.failure("Delete failed", e);
    }
  };

  return (
    <Card size="3" data-testid="mapData.layers">
      <Flex justify="between" align="center" gap="3" wrap="wrap" mb="3">
        <Heading as="h2" size="4">
          Layers
        </Heading>
        <Button onClick={() => choose(null)} disabled={busy}>
          <UploadIcon /> Add map data
        </Button>
      </Flex>
      <input
        ref={input}
        type="file"
        accept={ACCEPTED_FILES}
        aria-label="Map data file"
        hidden
        onChange={(e) => {
          start(e.target.files?.[0]);
          e.target.value = "";
        }}
      />
      <Flex direction="column" gap="3">
        {!busy && (
          <Flex
            p="4"
            justify="center"
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            data-testid="mapData.dropZone"
            style={{
              border: `2px dashed var(${dragging ? "--accent-9" : "--gray-6"})`,
              borderRadius: "var(--radius-3)",
              textAlign: "center",
            }}
          >
            <Text size="2" color="gray">
              Drop a TIGER/Line shapefile zip, a GeoJSON file or a PMTiles basemap here, or use Add map data. Files are
              read in your browser; the Census Bureau publishes TIGER/Line files per county and state.
            </Text>
          </Flex>
        )}
        <LayerUploadPanel
          state={parser.state}
          replacing={replacing}
          progress={progress}
          onParse={parser.parse}
          onUpload={(layer, file, name) => void onUpload(layer, file, name)}
          onCancel={cancel}
        />
        {overview === undefined ? (
          <Loading label="Loading map layers" />
        ) : (
          <LayerList layers={overview.layers} busy={busy} onReplace={(layer) => choose(layer)} onDelete={setDeleting} />
        )}
      </Flex>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete map layer?"
        description={
          deleting
            ? `“${deleting.name}”${countsText(deleting) ? ` (${countsText(deleting)})` : ""} will be deleted for everyone in your organization. Maps and address placement stop using it.`
            : ""
        }
        confirmLabel="Delete layer"
        onConfirm={() => void confirmDelete()}
      />
    </Card>
  );
}
