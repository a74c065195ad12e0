import { Box, Button, Callout, Card, Flex, Grid, Tabs, Text } from "@radix-ui/themes";
import { InfoCircledIcon } from "@radix-ui/react-icons";
import { useCallback, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import type { TurfFilters } from "@convex/tables/walkLists";
import { useOrgMap } from "@/lib/map/useOrgMap";
import { ROUTES } from "@/lib/routes";
import { useViewer } from "@/session/ViewerProvider";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import { TurfMap, type DrawMode, type Ring } from "./components/TurfMap";
import { TurfPanel, type CutSource } from "./components/TurfPanel";
import { WalkListDetail } from "./components/WalkListDetail";
import { WalkListForm } from "./components/WalkListForm";
import { WalkListTable } from "./components/WalkListTable";
import {
  useAreaCount,
  useDoorsInView,
  useTurfActions,
  useTurfData,
  useTurfDoors,
  useWalkLists,
  type Bounds,
  type TurfRow,
} from "./hooks/useWalkLists";

/** No geocoded voters yet: how to get them (streets under Map data, then geocoding), and gathering doors. */
function NoDoors({ building, onBuild }: { building: boolean; onBuild(): void }) {
  return (
    <Callout.Root color="blue" data-testid="walkLists.noDoors">
      <Callout.Icon>
        <InfoCircledIcon />
      </Callout.Icon>
      <Callout.Text>
        No doors to cut turf from yet. Turf is cut from voters placed on the map: an admin adds the county&apos;s
        streets under <Link to={ROUTES.mapData}>Account Settings → Map data</Link>, and the voter file is geocoded
        there. Voters placed before walk lists existed are gathered into doors with{" "}
        <Button size="1" variant="soft" disabled={building} onClick={onBuild}>
          {building ? "Gathering doors…" : "Gather doors"}
        </Button>
      </Callout.Text>
    </Callout.Root>
  );
}

/** The turf-cutting screen: the map and the turf panel, live for every organiser. */
function CutTurf({ onCreateList }: { onCreateList(t: TurfRow): void }) {
  const { overview, turfs, options, runs } = useTurfData(true);
  const orgMap = useOrgMap();
  const actions = useTurfActions();
  const [bounds, setBounds] = useState<Bounds | null>(null);
  const [mode, setMode] = useState<DrawMode>("idle");
  const [drawing, setDrawing] = useState<Ring | null>(null);
  const [drawn, setDrawn] = useState<Ring | null>(null);
  const [source, setSource] = useState<CutSource>({ kind: "drawn" });
  const [selected, setSelected] = useState<Id<"turfs"> | null>(null);
  const [fit, setFit] = useState<number[] | null>(null);
  const doors = useDoorsInView(bounds, !!overview?.hasDoors);
  const selectedDoors = useTurfDoors(selected);
  const boundaryId = source.kind === "boundary" ? source.boundaryId : null;
  const [filters, setFilters] = useState<TurfFilters>({});
  const count = useAreaCount(drawing ?? drawn, boundaryId, filters);
  const onBounds = useCallback((b: Bounds) => setBounds(b), []);
  const onDrawn = useCallback(
    (ring: Ring) => {
      const split = mode === "splitLine" || mode === "splitArea";
      setMode("idle");
      if (split && selected) {
        actions
          .split(mode === "splitLine" ? { turfId: selected, line: ring } : { turfId: selected, points: ring })
          .then((ids) => {
            setSelected(ids[0] ?? null);
            toast.success("Turf split in two");
          })
          .catch((e: unknown) => toast.failure("Could not split the turf", e));
        return;
      }
      setDrawn(ring);
    },
    [mode, selected, actions],
  );
  const select = (id: Id<"turfs"> | null) => {
    setSelected(id);
    const t = turfs?.find((x) => x.id === id);
    if (t && t.bbox.length === 4) setFit(t.bbox);
  };
  if (!overview) return <Loading />;
  return (
    <Flex direction="column" gap="3">
      {!overview.hasDoors && (
        <NoDoors
          building={overview.build?.status === "running"}
          onBuild={() => void actions.buildDoors({}).catch((e: unknown) => toast.failure("Could not gather doors", e))}
        />
      )}
      <Grid columns={{ initial: "1", md: "3fr 2fr" }} gap="3">
        <Box style={{ minWidth: 0 }}>
          <TurfMap
            orgMap={orgMap}
            center={overview.center}
            doors={doors}
            turfs={turfs ?? []}
            selected={selected}
            selectedDoors={selectedDoors}
            drawn={drawn}
            mode={mode}
            fit={fit}
            onBounds={onBounds}
            onDrawing={setDrawing}
            onDrawn={onDrawn}
            onSelect={select}
          />
        </Box>
        <TurfPanel
          options={options}
          turfs={turfs}
          mode={mode}
          setMode={(m) => {
            if (m === "polygon" || m === "rectangle") setDrawn(null);
            setMode(m);
          }}
          drawn={drawn}
          clearDrawn={() => {
            setDrawn(null);
            setDrawing(null);
          }}
          source={source}
          setSource={setSource}
          count={count}
          filters={filters}
          setFilters={setFilters}
          selected={selected}
          onSelect={select}
          lastOp={overview.lastOp}
          runs={runs}
          onCreateList={onCreateList}
        />
      </Grid>
    </Flex>
  );
}

/**
 * /walk-lists (spec/3 §2.7, issue 37): the walk lists with status, progress and canvassers, live for
 * the team; organisers cut turf on the map and make lists from it; a Volunteer sees the lists
 * assigned to them. Each list opens with its doors in walking order and prints as a walk sheet.
 */
export function WalkListsPage() {
  const { can } = useViewer();
  const canManage = can("campaigns.manage");
  const canView = can("walk_lists.view") || canManage;
  const lists = useWalkLists();
  const { options } = useTurfData(canManage);
  const [params, setParams] = useSearchParams();
  const tab = canManage && params.get("tab") === "turf" ? "turf" : "lists";
  const setTab = (t: string) =>
    setParams(
      (p) => {
        const n = new URLSearchParams(p);
        if (t === "turf") n.set("tab", "turf");
        else n.delete("tab");
        return n;
      },
      { replace: true },
    );
  const [open, setOpen] = useState<Id<"walkLists"> | null>(null);
  const [creating, setCreating] = useState<TurfRow | null>(null);
  if (!canView) return <NoPermission />;

  const listView =
    lists === undefined ? (
      <Loading />
    ) : lists.length === 0 ? (
      <Card data-testid="walkLists.empty">
        <Text size="2">
          {canManage
            ? "No walk lists yet. Cut turf on the map, then create a walk list from it."
            : "No walk lists are assigned to you yet."}
        </Text>
      </Card>
    ) : (
      <Card>
        <WalkListTable lists={lists} onOpen={setOpen} canManage={canManage && can("walk_lists.view")} />
      </Card>
    );

  return (
    <Box>
      <PageHeader
        title="Walk Lists"
        description="Cut turf, plan canvassing routes, assign volunteers and track doors knocked."
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Walk Lists" }]}
      />
      {canManage ? (
        <Tabs.Root value={tab} onValueChange={setTab}>
          <Tabs.List>
            <Tabs.Trigger value="lists">Walk lists</Tabs.Trigger>
            <Tabs.Trigger value="turf">Cut turf</Tabs.Trigger>
          </Tabs.List>
          <Box pt="3">
            <Tabs.Content value="lists">{listView}</Tabs.Content>
            <Tabs.Content value="turf">
              <CutTurf onCreateList={setCreating} />
            </Tabs.Content>
          </Box>
        </Tabs.Root>
      ) : (
        listView
      )}
      {creating && (
        <WalkListForm
          turf={creating}
          options={options}
          onClose={(id) => {
            setCreating(null);
            if (id) setOpen(id);
          }}
        />
      )}
      {open && <WalkListDetail id={open} canManage={canManage} options={options} onClose={() => setOpen(null)} />}
    </Box>
  );
}
