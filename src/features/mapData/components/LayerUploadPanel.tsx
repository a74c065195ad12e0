import {
  Badge,
  Button,
  Callout,
  Card,
  DataList,
  Flex,
  Heading,
  Progress,
  Select,
  Text,
  TextField,
} from "@radix-ui/themes";
import { useState } from "react";
import type { ParserState } from "../hooks/useLayerParser";
import type { MapLayerView } from "../hooks/useMapData";
import { countsText, formatBytes, formatCount, KIND_LABELS, percent, sourceLabel } from "../utils/layerDisplay";
import type { UploadProgress } from "../utils/uploadLayer";
import type { ParsedLayer } from "../worker/parseLayer.worker";

type Props = {
  state: ParserState;
  /** the layer an upload replaces (Replace), or null (Add map data) */
  replacing: MapLayerView | null;
  progress: UploadProgress | null;
  onParse(file: File, nameField?: string): void;
  onUpload(layer: ParsedLayer, file: File, name: string): void;
  onCancel(): void;
};

const STAGES = { reading: "Reading the file", converting: "Converting features", writing: "Preparing the map copy" };

function Bar({ label, value, detail }: { label: string; value: number; detail: string }) {
  return (
    <Flex direction="column" gap="1">
      <Text size="2">
        {label}: {detail}
      </Text>
      <Progress value={value} aria-label={label} />
    </Flex>
  );
}

/** A chosen file's way to the server: parsing (progress), the name field when asked, the preview to confirm, then the upload's progress. */
export function LayerUploadPanel({ state, replacing, progress, onParse, onUpload, onCancel }: Props) {
  if (state.status === "idle") return null;
  const title = replacing ? `Replace “${replacing.name}”` : "Add map data";
  return (
    <Card size="2" data-testid="mapData.upload">
      <Heading as="h3" size="3" mb="2">
        {title}
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        {state.file.name} ({formatBytes(state.file.size)})
      </Text>
      {state.status === "parsing" && (
        <Bar
          label={STAGES[state.stage]}
          value={state.stage === "converting" ? percent(state.done, state.total) : state.stage === "writing" ? 100 : 0}
          detail={state.stage === "converting" ? `${formatCount(state.done)} of ${formatCount(state.total)}` : "…"}
        />
      )}
      {state.status === "error" && (
        <Flex direction="column" gap="3">
          <Callout.Root color="red" role="alert" data-testid="mapData.parseError">
            <Callout.Text>{state.message}</Callout.Text>
          </Callout.Root>
          <Flex justify="end">
            <Button variant="soft" color="gray" onClick={onCancel}>
              Close
            </Button>
          </Flex>
        </Flex>
      )}
      {state.status === "chooseNameField" && (
        <NameFieldChoice
          message={state.message}
          fields={state.fields}
          onChoose={(f) => onParse(state.file, f)}
          onCancel={onCancel}
        />
      )}
      {state.status === "ready" && (
        <Preview
          key={`${state.file.name}:${state.layer.nameField}`}
          layer={state.layer}
          file={state.file}
          replacing={replacing}
          progress={progress}
          onParse={onParse}
          onUpload={onUpload}
          onCancel={onCancel}
        />
      )}
    </Card>
  );
}

function NameFieldChoice({
  message,
  fields,
  onChoose,
  onCancel,
}: {
  message: string;
  fields: string[];
  onChoose(field: string): void;
  onCancel(): void;
}) {
  const [field, setField] = useState<string>("");
  return (
    <Flex direction="column" gap="3">
      <Callout.Root color="amber" data-testid="mapData.chooseNameField">
        <Callout.Text>{message}</Callout.Text>
      </Callout.Root>
      <Flex direction="column" gap="1">
        <Text size="2" weight="medium" id="mapData-nameField-label">
          Name field
        </Text>
        <Select.Root value={field} onValueChange={setField}>
          <Select.Trigger aria-labelledby="mapData-nameField-label" placeholder="Choose a field" />
          <Select.Content>
            {fields.map((f) => (
              <Select.Item key={f} value={f}>
                {f}
              </Select.Item>
            ))}
          </Select.Content>
        </Select.Root>
      </Flex>
      <Flex gap="3" justify="end" wrap="wrap">
        <Button variant="soft" color="gray" onClick={onCancel}>
          Cancel
        </Button>
        <Button disabled={!field} onClick={() => onChoose(field)}>
          Continue
        </Button>
      </Flex>
    </Flex>
  );
}

function Preview({
  layer,
  file,
  replacing,
  progress,
  onParse,
  onUpload,
  onCancel,
}: {
  layer: ParsedLayer;
  file: File;
  replacing: MapLayerView | null;
  progress: UploadProgress | null;
  onParse(file: File, nameField?: string): void;
  onUpload(layer: ParsedLayer, file: File, name: string): void;
  onCancel(): void;
}) {
  const [name, setName] = useState(replacing?.name ?? layer.name);
  const mismatch =
    replacing && replacing.kind !== layer.kind
      ? `This file is a ${KIND_LABELS[layer.kind].toLowerCase()} layer: it cannot replace a ${KIND_LABELS[replacing.kind].toLowerCase()} layer.`
      : null;
  const uploading = progress !== null;
  const source = sourceLabel(layer.tigerLayer ?? (layer.kind === "boundaries" ? "custom" : null));
  return (
    <Flex direction="column" gap="3" data-testid="mapData.preview">
      <Flex gap="2" wrap="wrap">
        <Badge color="indigo">{KIND_LABELS[layer.kind]}</Badge>
        {source && <Badge color="gray">{source}</Badge>}
      </Flex>
      <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }} size="2">
        {layer.kind !== "basemap" && (
          <DataList.Item>
            <DataList.Label>Features</DataList.Label>
            <DataList.Value data-testid="mapData.preview.counts">{countsText(layer)}</DataList.Value>
          </DataList.Item>
        )}
        {layer.unnamed + layer.skipped > 0 && (
          <DataList.Item>
            <DataList.Label>Not stored</DataList.Label>
            <DataList.Value>
              {[
                layer.unnamed > 0 && `${formatCount(layer.unnamed)} unnamed (drawn on the map only)`,
                layer.skipped > 0 && `${formatCount(layer.skipped)} left out (not roads, or no shape or name)`,
              ]
                .filter(Boolean)
                .join("; ")}
            </DataList.Value>
          </DataList.Item>
        )}
        {layer.preview.classes.length > 0 && (
          <DataList.Item>
            <DataList.Label>Road classes</DataList.Label>
            <DataList.Value data-testid="mapData.preview.classes">
              {layer.preview.classes.map((c) => `${c.label}: ${formatCount(c.count)}`).join(", ")}
            </DataList.Value>
          </DataList.Item>
        )}
        {layer.preview.names.length > 0 && (
          <DataList.Item>
            <DataList.Label>{layer.kind === "streets" ? "First streets" : "Areas"}</DataList.Label>
            <DataList.Value data-testid="mapData.preview.names">{layer.preview.names.join(", ")}</DataList.Value>
          </DataList.Item>
        )}
        {layer.bbox && (
          <DataList.Item>
            <DataList.Label>Extent</DataList.Label>
            <DataList.Value>{layer.bbox.map((v) => v.toFixed(4)).join(", ")} (west, south, east, north)</DataList.Value>
          </DataList.Item>
        )}
      </DataList.Root>
      {layer.kind === "boundaries" && layer.fields.length > 0 && (
        <Flex direction="column" gap="1">
          <Text size="2" weight="medium" id="mapData-previewNameField-label">
            Name field
          </Text>
          <Select.Root
            value={layer.nameField ?? undefined}
            onValueChange={(f) => onParse(file, f)}
            disabled={uploading}
          >
            <Select.Trigger aria-labelledby="mapData-previewNameField-label" />
            <Select.Content>
              {layer.fields.map((f) => (
                <Select.Item key={f} value={f}>
                  {f}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
        </Flex>
      )}
      <Flex asChild direction="column" gap="1">
        <label>
          <Text size="2" weight="medium">
            Layer name
          </Text>
          <TextField.Root value={name} maxLength={200} onChange={(e) => setName(e.target.value)} disabled={uploading} />
        </label>
      </Flex>
      {mismatch && (
        <Callout.Root color="red" role="alert">
          <Callout.Text>{mismatch}</Callout.Text>
        </Callout.Root>
      )}
      {replacing && !mismatch && (
        <Text size="2" color="gray">
          “{replacing.name}” stays in use until every feature of this file has arrived, then it is deleted.
        </Text>
      )}
      {progress && (
        <Bar
          label={progress.stage === "file" ? "Uploading the map copy" : "Storing features"}
          value={progress.stage === "file" ? 0 : percent(progress.stored, progress.features)}
          detail={
            progress.stage === "file" ? "…" : `${formatCount(progress.stored)} of ${formatCount(progress.features)}`
          }
        />
      )}
      <Flex gap="3" justify="end" wrap="wrap">
        <Button variant="soft" color="gray" onClick={onCancel} disabled={uploading}>
          Cancel
        </Button>
        <Button disabled={!!mismatch} loading={uploading} onClick={() => onUpload(layer, file, name)}>
          {replacing ? "Replace layer" : "Upload"}
        </Button>
      </Flex>
    </Flex>
  );
}
