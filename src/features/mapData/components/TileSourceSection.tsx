import { Button, Card, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { useMemo, useState } from "react";
import { editsOf } from "@/lib/records/mergeForm";
import { useMergedForm } from "@/lib/records/useMergedForm";
import { FieldConflict } from "@/ui/FieldConflict";
import { errorMessage, toast } from "@/ui/toast";
import { useMergedSave } from "@/ui/useMergedSave";
import type { TileSettings } from "../hooks/useMapData";

type Props = {
  settings: TileSettings | undefined;
  setTiles(args: { edits: ReturnType<typeof editsOf> }): Promise<null>;
};

const LABELS: Record<string, string> = { tileUrl: "Tile URL template", tileAttribution: "Attribution" };

/**
 * The raster tile source every map of the organisation draws under its data (empty: none). Two
 * admins editing it at once never overwrite each other: a teammate's save arrives in the form
 * live, and a save sends only the changed fields with the values they started from.
 */
export function TileSourceSection({ settings, setTiles }: Props) {
  const saved = useMemo(
    () => (settings ? { tileUrl: settings.tileUrl, tileAttribution: settings.tileAttribution } : undefined),
    [settings],
  );
  const merged = useMergedForm("tileSource", saved);
  const [error, setError] = useState<string | null>(null);
  const { busy: saving, save: saveMerged } = useMergedSave(merged, undefined, (k) => LABELS[k]);
  const form = merged.form;
  if (!form) return null;

  const save = async () => {
    setError(null);
    const removing = !form.values.tileUrl.trim();
    await saveMerged(
      async () => {
        await setTiles({ edits: editsOf(form, (_k, value) => value) });
        toast.success(removing ? "Tile source removed" : "Tile source saved");
      },
      (e) => {
        setError(errorMessage(e));
        toast.failure("Save failed", e);
      },
    );
  };

  const field = (key: "tileUrl" | "tileAttribution", placeholder: string, maxLength: number) => (
    <Flex direction="column" gap="1">
      <Flex asChild direction="column" gap="1">
        <label>
          <Text size="2" weight="medium">
            {LABELS[key]}
          </Text>
          <TextField.Root
            value={form.values[key] ?? ""}
            placeholder={placeholder}
            maxLength={maxLength}
            onChange={(e) => merged.setField(key, e.target.value)}
          />
        </label>
      </Flex>
      {form.conflicts[key] !== undefined && (
        <FieldConflict
          label={LABELS[key]}
          theirs={form.conflicts[key]}
          by={settings?.editState.fields[key]?.name}
          onKeepMine={() => merged.keepMine(key)}
          onTakeTheirs={() => merged.takeTheirs(key)}
        />
      )}
    </Flex>
  );

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
          {field("tileUrl", "https://tiles.example.org/{z}/{x}/{y}.png", 500)}
          {field("tileAttribution", "© OpenStreetMap contributors", 300)}
          {error && (
            <Text size="2" color="red" role="alert" data-testid="mapData.tiles.error">
              {error}
            </Text>
          )}
          <Flex justify="end">
            <Button type="submit" loading={saving} disabled={merged.touched.length === 0}>
              Save tile source
            </Button>
          </Flex>
        </Flex>
      </form>
    </Card>
  );
}
