import { PlusIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Flex, Grid, Tabs, Text } from "@radix-ui/themes";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { MAP_CENTER } from "@convex/lib/signs/geo";
import { useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import { PickupListDialog } from "./components/PickupListDialog";
import type { SignActionHandlers, SignTarget } from "./components/SignActions";
import { RemoveSignDialog, ScheduleSignDialog } from "./components/SignDialogs";
import { SignFormPanel } from "./components/SignFormPanel";
import { SignInfo } from "./components/SignInfo";
import { MapCrashBoundary, MapErrorPanel } from "./components/MapErrorPanel";
import { useOrgMap } from "@/lib/map/useOrgMap";
import { SignMap } from "./components/SignMap";
import { SignSideList } from "./components/SignSideList";
import { SignTable } from "./components/SignTable";
import { useSignMap, type MapViewport } from "./hooks/useSignMap";
import { useSignOptions } from "./hooks/useSignOptions";
import { useSign } from "./hooks/useSign";
import { useSignsPage } from "./hooks/useSignActions";
import { STATUS_FILTERS, type StatusFilter } from "./utils/signDisplay";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";

type FormState = { editId: Id<"signs"> | null; key: number };

/**
 * /signs-map (spec/3 §2.6): the organisation's yard signs on a map and in a table, live for the
 * whole team. Map View: status filters, the map (clustered), the signs in view or the add/edit
 * form beside it. Table View: every sign with its actions.
 */
export function SignsMapPage() {
  const { can, me } = useViewer();
  const canView = can("campaigns.view");
  const canManage = can("campaigns.manage");
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "table" ? "table" : "map";
  const setTab = (t: string) =>
    setParams(
      (p) => {
        const n = new URLSearchParams(p);
        if (t === "table") n.set("tab", "table");
        else n.delete("tab");
        return n;
      },
      { replace: true },
    );
  const [status, setStatus] = useState<StatusFilter>("All");
  const [viewport, setViewport] = useState<MapViewport | null>(null);
  const { data } = useSignMap(viewport, status, canView);
  const orgMap = useOrgMap();
  const options = useSignOptions(canView);
  const { pickups, removeSign } = useSignsPage(canView);

  const [selected, setSelected] = useState<{ id: Id<"signs">; lat: number; lng: number } | null>(null);
  const [form, setForm] = useState<FormState | null>(null);
  const [picked, setPicked] = useState<{ lat: number; lng: number; seq: number } | null>(null);
  const [preview, setPreview] = useState<{ lat: number; lng: number } | null>(null);
  const [focus, setFocus] = useState<{ lat: number; lng: number; key: number } | null>(null);
  const [scheduling, setScheduling] = useState<SignTarget | null>(null);
  const [removing, setRemoving] = useState<SignTarget | null>(null);
  const [deleting, setDeleting] = useState<SignTarget | null>(null);
  const [pickupOpen, setPickupOpen] = useState(false);
  const [tileError, setTileError] = useState<string | null>(null);
  const [tilesKey, setTilesKey] = useState(0);
  const { sign: editing } = useSign(form?.editId ?? null);
  const seq = useRef(0);

  const onViewport = useCallback((v: MapViewport) => setViewport(v), []);
  const onPreview = useCallback((p: { lat: number; lng: number } | null) => setPreview(p), []);
  const showOnMap = useCallback((id: Id<"signs">, lat: number, lng: number) => {
    setTab("map");
    setSelected({ id, lat, lng });
    setFocus({ lat, lng, key: ++seq.current });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // ?sign=<id> (a voter's page: View on map) opens that sign
  const linked = params.get("sign");
  const { sign: linkedSign } = useSign(linked && canView ? linked : null);
  useEffect(() => {
    if (!linkedSign) return;
    showOnMap(linkedSign.id, linkedSign.latitude, linkedSign.longitude);
    setParams(
      (p) => {
        const n = new URLSearchParams(p);
        n.delete("sign");
        return n;
      },
      { replace: true },
    );
  }, [linkedSign, showOnMap, setParams]);

  const actions: SignActionHandlers = useMemo(
    () => ({
      edit: (s) => {
        setTab("map");
        setSelected(null);
        setForm({ editId: s.id, key: ++seq.current });
        setFocus({ lat: s.latitude, lng: s.longitude, key: ++seq.current });
      },
      schedule: (s) => setScheduling(s),
      markRemoved: (s) => setRemoving(s),
      viewOnMap: (s) => showOnMap(s.id, s.latitude, s.longitude),
      remove: (s) => setDeleting(s),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [showOnMap],
  );

  const closeForm = (savedId?: Id<"signs">) => {
    setForm(null);
    setPreview(null);
    if (savedId && preview) setSelected({ id: savedId, lat: preview.lat, lng: preview.lng });
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await removeSign({ id: deleting.id });
      if (selected?.id === deleting.id) setSelected(null);
      toast.success("Sign deleted");
    } catch (e) {
      toast.failure("Error deleting sign", e);
    }
  };

  const dueCount = (pickups ?? []).reduce((n, g) => n + g.signs.length, 0);
  const totals = data?.totals;

  if (me === undefined) return <Loading />;
  if (!canView) {
    return (
      <Box>
        <PageHeader
          title="Sign Map"
          breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Sign Map" }]}
        />
        <NoPermission />
      </Box>
    );
  }

  return (
    <Box>
      <PageHeader
        title="Sign Map"
        description="Where your campaign's yard and field signs stand, live for the whole team."
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Sign Map" }]}
        actions={
          canManage && (
            <Button
              onClick={() => {
                setTab("map");
                setSelected(null);
                setForm({ editId: null, key: ++seq.current });
              }}
            >
              <PlusIcon /> Add Sign Location
            </Button>
          )
        }
      />
      {dueCount > 0 && (
        <Callout.Root color="amber" mb="3">
          <Callout.Text>
            {dueCount.toLocaleString("en-US")} {dueCount === 1 ? "sign is" : "signs are"} past the removal date and due
            for pickup.{" "}
            <Button size="1" variant="soft" color="amber" onClick={() => setPickupOpen(true)}>
              Pickup list
            </Button>
          </Callout.Text>
        </Callout.Root>
      )}
      <Flex gap="2" mb="3" align="center" wrap="wrap">
        <Text size="2" weight="medium" id="sign-status-filter">
          Status
        </Text>
        <Flex gap="2" wrap="wrap" role="group" aria-labelledby="sign-status-filter">
          {STATUS_FILTERS.map((s) => (
            <Button
              key={s}
              size="2"
              variant={status === s ? "solid" : "soft"}
              aria-pressed={status === s}
              onClick={() => setStatus(s)}
            >
              {s}
              {totals ? ` (${totals[s].toLocaleString("en-US")})` : ""}
            </Button>
          ))}
        </Flex>
      </Flex>
      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List>
          <Tabs.Trigger value="map">Map View</Tabs.Trigger>
          <Tabs.Trigger value="table">Table View</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="map" forceMount hidden={tab !== "map"}>
          {tileError && (
            <Box mt="3">
              <MapErrorPanel
                message={tileError}
                onRetry={() => {
                  setTileError(null);
                  setTilesKey((k) => k + 1);
                }}
              />
            </Box>
          )}
          <Grid columns={{ initial: "1", md: "minmax(0, 1fr) 380px" }} gap="3" mt="3">
            <MapCrashBoundary>
              <SignMap
                key={tilesKey}
                data={data}
                onViewport={onViewport}
                selected={selected}
                popup={selected && <SignInfo id={selected.id} canManage={canManage} actions={actions} />}
                onSelect={(id, lat, lng) => setSelected({ id, lat, lng })}
                onClosePopup={(id) => setSelected((s) => (s?.id === id ? null : s))}
                picking={form !== null}
                onPick={(lat, lng) => setPicked({ lat, lng, seq: ++seq.current })}
                focus={focus}
                pickedPoint={preview}
                onTileError={setTileError}
                tilesFailed={tileError !== null}
                visible={tab === "map"}
                streets={orgMap.streets}
                basemapUrl={orgMap.basemapUrl}
                tiles={orgMap.tiles}
              />
            </MapCrashBoundary>
            {form ? (
              <SignFormPanel
                key={form.key}
                editId={form.editId}
                sign={form.editId ? editing : undefined}
                options={options}
                picked={picked}
                center={
                  viewport
                    ? {
                        lat: (viewport.bounds.north + viewport.bounds.south) / 2,
                        lng: (viewport.bounds.east + viewport.bounds.west) / 2,
                      }
                    : MAP_CENTER
                }
                onPreview={onPreview}
                onClose={closeForm}
              />
            ) : (
              <SignSideList
                data={data}
                selectedId={selected?.id ?? null}
                onSelect={(id, lat, lng) => showOnMap(id, lat, lng)}
              />
            )}
          </Grid>
        </Tabs.Content>
        <Tabs.Content value="table">
          <Box mt="3">
            <SignTable status={status} canManage={canManage} actions={actions} />
          </Box>
        </Tabs.Content>
      </Tabs.Root>
      {scheduling && <ScheduleSignDialog target={scheduling} options={options} onClose={() => setScheduling(null)} />}
      {removing && <RemoveSignDialog target={removing} onClose={() => setRemoving(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete sign"
        description={`Delete the sign at ${deleting?.address ?? ""}? This cannot be undone.`}
        onConfirm={() => void confirmDelete()}
      />
      <PickupListDialog
        open={pickupOpen}
        onOpenChange={setPickupOpen}
        groups={pickups ?? []}
        canManage={canManage}
        actions={actions}
      />
    </Box>
  );
}
