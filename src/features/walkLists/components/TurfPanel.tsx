import { Badge, Box, Button, Card, Checkbox, Flex, Heading, Select, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { PARTIES, VOTER_STATUSES } from "@convex/tables/voters";
import type { TurfFilters } from "@convex/tables/walkLists";
import { TEXTS } from "@convex/lib/texts";
import { countOf } from "@/lib/plural";
import { toast } from "@/ui/toast";
import { useBoundaries, useTurfActions, type TurfOptions, type TurfRow } from "../hooks/useWalkLists";
import type { DrawMode, Ring } from "./TurfMap";

export type CutSource =
  | { kind: "drawn" }
  | { kind: "boundary"; layerId: Id<"mapLayers"> | null; boundaryId: Id<"boundaries"> | null }
  | { kind: "district"; districtId: Id<"districts"> | null }
  | { kind: "group"; groupId: Id<"voterGroups"> | null }
  | { kind: "segment"; segmentId: Id<"emailSegments"> | null };

type Props = {
  options: TurfOptions | undefined;
  turfs: TurfRow[] | undefined;
  mode: DrawMode;
  setMode(m: DrawMode): void;
  drawn: Ring | null;
  clearDrawn(): void;
  source: CutSource;
  setSource(s: CutSource): void;
  /** the live count of the area with the filters (held: doors an open walk list holds) */
  count: { doors: number; voters: number; held: number; tooLarge?: true } | null | undefined;
  filters: TurfFilters;
  setFilters(f: TurfFilters): void;
  selected: Id<"turfs"> | null;
  onSelect(id: Id<"turfs"> | null): void;
  lastOp: string | null;
  runs: { id: string; name: string; status: string; turfs: number; doors: number; progress: number }[] | undefined;
  onCreateList(turf: TurfRow): void;
};

const fmt = (n: number) => n.toLocaleString("en-US");

function toggle<T>(list: T[] | undefined, value: T): T[] {
  const l = list ?? [];
  return l.includes(value) ? l.filter((x) => x !== value) : [...l, value];
}

/** Filters of a cut: party, status, vote history, not contacted since, opted out. */
function FilterFields({ filters, onChange }: { filters: TurfFilters; onChange(f: TurfFilters): void }) {
  return (
    <Flex direction="column" gap="2" data-testid="turf.filters">
      <Text size="2" weight="medium">
        Filters
      </Text>
      <Flex gap="3" wrap="wrap" role="group" aria-label="Party">
        {PARTIES.map((p) => (
          <Text as="label" size="2" key={p}>
            <Flex gap="1" align="center">
              <Checkbox
                checked={filters.parties?.includes(p) ?? false}
                onCheckedChange={() => onChange({ ...filters, parties: toggle(filters.parties, p) })}
              />
              {p}
            </Flex>
          </Text>
        ))}
      </Flex>
      <Flex gap="3" wrap="wrap" role="group" aria-label="Voter status">
        {VOTER_STATUSES.map((s) => (
          <Text as="label" size="2" key={s}>
            <Flex gap="1" align="center">
              <Checkbox
                checked={filters.statuses?.includes(s) ?? false}
                onCheckedChange={() => onChange({ ...filters, statuses: toggle(filters.statuses, s) })}
              />
              {s}
            </Flex>
          </Text>
        ))}
      </Flex>
      <label>
        <Text size="1">Voted in (election as in the vote history)</Text>
        <TextField.Root
          value={filters.votedIn ?? ""}
          placeholder="e.g. 2024 General"
          onChange={(e) => onChange({ ...filters, votedIn: e.target.value || undefined })}
        />
      </label>
      <label>
        <Text size="1">Not contacted since</Text>
        <TextField.Root
          type="date"
          value={filters.notContactedSince ? new Date(filters.notContactedSince).toISOString().slice(0, 10) : ""}
          onChange={(e) =>
            onChange({ ...filters, notContactedSince: e.target.value ? Date.parse(e.target.value) : undefined })
          }
        />
      </label>
      <Text as="label" size="2">
        <Flex gap="2" align="center">
          <Checkbox
            checked={filters.excludeOptedOut ?? false}
            onCheckedChange={(c) => onChange({ ...filters, excludeOptedOut: c === true || undefined })}
          />
          Leave out voters who opted out (texts or email)
        </Flex>
      </Text>
    </Flex>
  );
}

/** Cutting turf: draw or choose a source, see the live count, filter, save; the turfs with split, merge, undo; auto-cut. */
export function TurfPanel(p: Props) {
  const actions = useTurfActions();
  const [name, setName] = useState("");
  const { filters, setFilters } = p;
  const [checked, setChecked] = useState<Id<"turfs">[]>([]);
  const [target, setTarget] = useState("150");
  const [busy, setBusy] = useState(false);
  const boundaries = useBoundaries(p.source.kind === "boundary" ? p.source.layerId : null);

  const sourceArgs = () => {
    const s = p.source;
    if (s.kind === "boundary") return s.boundaryId ? { boundaryId: s.boundaryId } : null;
    if (s.kind === "district") return s.districtId ? { districtId: s.districtId } : null;
    if (s.kind === "group") return s.groupId ? { groupId: s.groupId } : null;
    if (s.kind === "segment") return s.segmentId ? { segmentId: s.segmentId } : null;
    return p.drawn ? { points: p.drawn } : null;
  };
  const ready = sourceArgs() !== null;

  const run = async (title: string, work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (e) {
      toast.failure(title, e);
    } finally {
      setBusy(false);
    }
  };

  const save = () =>
    run("Could not cut the turf", async () => {
      const args = sourceArgs();
      if (!args) return;
      const r = await actions.cut({ name, filters, ...args });
      toast.success(`Turf "${name.trim()}" cut`, {
        description: `${countOf(r.doors, "door")}, ${countOf(r.voters, "voter")}`,
      });
      setName("");
      p.clearDrawn();
      p.onSelect(r.id);
    });

  const autoCut = () =>
    run("Could not auto-cut", async () => {
      const args = sourceArgs();
      if (!args || "groupId" in args || "segmentId" in args || "districtId" in args) return;
      await actions.autoCut({ name: name || "Turf", target: Number(target), filters, ...args });
      toast.success("Auto-cut started", { description: "The turfs appear as they are cut." });
      p.clearDrawn();
    });

  const sourceValue = p.source.kind;
  return (
    <Flex direction="column" gap="3">
      <Card>
        <Heading as="h2" size="3" mb="2">
          Cut turf
        </Heading>
        <Flex direction="column" gap="2">
          <label>
            <Text size="1">Start from</Text>
            <Select.Root
              value={sourceValue}
              onValueChange={(k) => {
                p.setMode("idle");
                p.clearDrawn();
                p.setSource(
                  k === "boundary"
                    ? { kind: "boundary", layerId: p.options?.layers[0]?.id ?? null, boundaryId: null }
                    : k === "district"
                      ? { kind: "district", districtId: null }
                      : k === "group"
                        ? { kind: "group", groupId: null }
                        : k === "segment"
                          ? { kind: "segment", segmentId: null }
                          : { kind: "drawn" },
                );
              }}
            >
              <Select.Trigger aria-label="Start from" style={{ width: "100%" }} />
              <Select.Content>
                <Select.Item value="drawn">An area drawn on the map</Select.Item>
                <Select.Item value="boundary">A district or precinct (boundary)</Select.Item>
                <Select.Item value="district">A district (voter-file codes and boundaries)</Select.Item>
                <Select.Item value="group">A group of voters</Select.Item>
                <Select.Item value="segment">An email segment</Select.Item>
              </Select.Content>
            </Select.Root>
          </label>
          {p.source.kind === "drawn" && (
            <Flex gap="2" wrap="wrap">
              <Button
                variant={p.mode === "polygon" ? "solid" : "soft"}
                onClick={() => p.setMode(p.mode === "polygon" ? "idle" : "polygon")}
              >
                Draw polygon
              </Button>
              <Button
                variant={p.mode === "rectangle" ? "solid" : "soft"}
                onClick={() => p.setMode(p.mode === "rectangle" ? "idle" : "rectangle")}
              >
                Draw rectangle
              </Button>
              {(p.drawn || p.mode !== "idle") && (
                <Button
                  variant="ghost"
                  color="gray"
                  onClick={() => {
                    p.setMode("idle");
                    p.clearDrawn();
                  }}
                >
                  Clear
                </Button>
              )}
            </Flex>
          )}
          {p.source.kind === "boundary" && (
            <Flex gap="2" wrap="wrap">
              <Select.Root
                value={p.source.layerId ?? undefined}
                onValueChange={(id) =>
                  p.setSource({ kind: "boundary", layerId: id as Id<"mapLayers">, boundaryId: null })
                }
              >
                <Select.Trigger aria-label="Boundary layer" placeholder="Boundary layer" />
                <Select.Content>
                  {p.options?.layers.map((l) => (
                    <Select.Item key={l.id} value={l.id}>
                      {l.name}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
              <Select.Root
                value={p.source.boundaryId ?? undefined}
                onValueChange={(id) =>
                  p.source.kind === "boundary" && p.setSource({ ...p.source, boundaryId: id as Id<"boundaries"> })
                }
              >
                <Select.Trigger aria-label="Area" placeholder="Area" />
                <Select.Content>
                  {boundaries?.map((b) => (
                    <Select.Item key={b.id} value={b.id}>
                      {b.name}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
              {p.options?.layers.length === 0 && <Text size="2">No boundary layers yet (Map data).</Text>}
            </Flex>
          )}
          {p.source.kind === "district" && (
            <Select.Root
              value={p.source.districtId ?? undefined}
              onValueChange={(id) => p.setSource({ kind: "district", districtId: id as Id<"districts"> })}
            >
              <Select.Trigger aria-label="District" placeholder="Choose a district" />
              <Select.Content>
                {p.options?.districts.map((d) => (
                  <Select.Item key={d.id} value={d.id}>
                    {d.name}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          )}
          {p.source.kind === "district" && p.options?.districts.length === 0 && (
            <Text size="2">No districts yet: voter-file codes or boundary layers (Map data) make them.</Text>
          )}
          {p.source.kind === "group" && (
            <Select.Root
              value={p.source.groupId ?? undefined}
              onValueChange={(id) => p.setSource({ kind: "group", groupId: id as Id<"voterGroups"> })}
            >
              <Select.Trigger aria-label="Group" placeholder="Choose a group" />
              <Select.Content>
                {p.options?.groups.map((g) => (
                  <Select.Item key={g.id} value={g.id}>
                    {g.name}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          )}
          {p.source.kind === "segment" && (
            <Select.Root
              value={p.source.segmentId ?? undefined}
              onValueChange={(id) => p.setSource({ kind: "segment", segmentId: id as Id<"emailSegments"> })}
            >
              <Select.Trigger aria-label="Segment" placeholder="Choose a segment" />
              <Select.Content>
                {p.options?.segments.map((g) => (
                  <Select.Item key={g.id} value={g.id}>
                    {g.name}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          )}
          <Box data-testid="turf.liveCount" aria-live="polite">
            {p.count?.tooLarge ? (
              <Text size="2" color="amber" data-testid="turf.liveCount.tooLarge">
                {TEXTS.walkLists.areaTooLarge}
              </Text>
            ) : p.count ? (
              <>
                <Text size="3" weight="bold">
                  {`${countOf(p.count.doors, "door")} · ${countOf(p.count.voters, "voter")}`}
                </Text>
                {p.count.held > 0 && (
                  <Text as="div" size="1" color="amber" data-testid="turf.liveCount.held">
                    {`${countOf(p.count.held, "door")} already in open walk lists (auto-cut leaves them out)`}
                  </Text>
                )}
              </>
            ) : (
              <Text size="2" color="gray">
                {p.source.kind === "drawn"
                  ? "Draw an area: its doors and voters are counted as you draw."
                  : "Choose where the turf comes from."}
              </Text>
            )}
          </Box>
          <FilterFields filters={filters} onChange={setFilters} />
          <label>
            <Text size="1">Turf name</Text>
            <TextField.Root value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Oak St loop" />
          </label>
          <Flex gap="2" wrap="wrap">
            <Button disabled={!ready || busy || !name.trim()} onClick={() => void save()}>
              Save turf
            </Button>
          </Flex>
          {(p.source.kind === "drawn" || p.source.kind === "boundary") && (
            <Flex gap="2" align="end" wrap="wrap" data-testid="turf.autoCut">
              <label>
                <Text size="1">Doors per turf</Text>
                <TextField.Root
                  type="number"
                  min={25}
                  max={1000}
                  value={target}
                  onChange={(e) => setTarget(e.target.value)}
                  style={{ width: 110 }}
                />
              </label>
              <Button variant="soft" disabled={!ready || busy} onClick={() => void autoCut()}>
                Auto-cut into turfs
              </Button>
            </Flex>
          )}
          {p.runs
            ?.filter((r) => r.status === "running")
            .map((r) => (
              <Text size="2" key={r.id} data-testid="turf.autoCutProgress">
                {`Auto-cutting ${r.name}: ${Math.round(r.progress * 100)} %, ${countOf(r.turfs, "turf")} so far`}
              </Text>
            ))}
        </Flex>
      </Card>

      <Card>
        <Flex justify="between" align="center" mb="2" gap="2" wrap="wrap">
          <Heading as="h2" size="3">
            Turfs
          </Heading>
          <Flex gap="2" wrap="wrap">
            <Button
              size="1"
              variant="soft"
              disabled={checked.length < 2 || busy}
              onClick={() =>
                void run("Could not merge", async () => {
                  const id = await actions.merge({ turfIds: checked });
                  setChecked([]);
                  p.onSelect(id);
                })
              }
            >
              Merge
            </Button>
            <Button
              size="1"
              variant="soft"
              disabled={!p.selected || busy}
              onClick={() => p.setMode(p.mode === "splitLine" ? "idle" : "splitLine")}
            >
              {p.mode === "splitLine" ? "Cancel split" : "Split by line"}
            </Button>
            <Button
              size="1"
              variant="soft"
              disabled={!p.selected || busy}
              onClick={() => p.setMode(p.mode === "splitArea" ? "idle" : "splitArea")}
            >
              {p.mode === "splitArea" ? "Cancel split" : "Split by area"}
            </Button>
            <Button
              size="1"
              variant="soft"
              color="gray"
              disabled={!p.lastOp || busy}
              onClick={() =>
                void run("Could not undo", async () => {
                  const kind = await actions.undo({});
                  toast.success(`Undid your last ${kind === "auto" ? "auto-cut" : kind}`);
                })
              }
            >
              Undo
            </Button>
          </Flex>
        </Flex>
        {p.mode === "splitLine" && (
          <Text size="2" as="p" mb="2">
            Draw a line across the selected turf; double-click to finish.
          </Text>
        )}
        {p.mode === "splitArea" && (
          <Text size="2" as="p" mb="2">
            Draw an area over part of the selected turf; its doors become one turf, the rest another.
          </Text>
        )}
        {p.turfs?.length === 0 && (
          <Text size="2" color="gray">
            No turfs yet.
          </Text>
        )}
        <Flex direction="column" gap="1" data-testid="turf.list" style={{ maxHeight: 360, overflowY: "auto" }}>
          {p.turfs?.map((t) => (
            <Flex
              key={t.id}
              gap="2"
              align="center"
              justify="between"
              p="1"
              data-testid="turf.row"
              style={{
                borderRadius: 6,
                background: t.id === p.selected ? "var(--accent-a3)" : undefined,
              }}
            >
              <Flex gap="2" align="center" style={{ minWidth: 0 }}>
                <Checkbox
                  aria-label={`Choose ${t.name} to merge`}
                  checked={checked.includes(t.id)}
                  onCheckedChange={() => setChecked((c) => toggle(c, t.id))}
                />
                <Box style={{ minWidth: 0 }}>
                  <Button variant="ghost" size="1" onClick={() => p.onSelect(t.id === p.selected ? null : t.id)}>
                    <Text truncate>{t.name}</Text>
                  </Button>
                  <Text as="div" size="1" color="gray" data-testid="turf.row.counts">
                    {`${countOf(t.doors, "door")} · ${countOf(t.voters, "voter")} · ${t.sourceLabel}`}
                  </Text>
                </Box>
              </Flex>
              {t.list ? (
                <Badge color="green">{t.list.name}</Badge>
              ) : (
                <Button size="1" onClick={() => p.onCreateList(t)}>
                  Create walk list
                </Button>
              )}
            </Flex>
          ))}
        </Flex>
        {p.turfs && p.turfs.length > 0 && (
          <Text size="1" color="gray" as="p" mt="2">
            {`${countOf(p.turfs.length, "turf")}, ${fmt(p.turfs.reduce((n, t) => n + t.doors, 0))} doors`}
          </Text>
        )}
      </Card>
    </Flex>
  );
}
