import { Badge, Box, Button, Callout, Card, Flex, Grid, Heading, Switch, Text } from "@radix-ui/themes";
import { lazy, Suspense, useMemo, useState } from "react";
import { useParams, useSearchParams } from "react-router-dom";
import { RESULT_CODES, RESULT_LABELS, type ResultCode } from "@convex/lib/canvass";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { CanvassFrame, type FieldContext } from "./components/CanvassFrame";
import { ClaimPanel } from "./components/ClaimPanel";
import { OutboxIssues } from "./components/OutboxIssues";
import { RecordForm } from "./components/RecordForm";
import { useGps } from "./hooks/useGps";
import { useListCopy } from "./hooks/useListCopy";
import { useCanvassStore, useLocalCopy } from "./hooks/useLocalCopy";
import { actionLabel, distanceText, doorName, nearestOpenDoors, shownStates, timeText } from "./utils/doors";
import type { BundleDoor, NewAction } from "./utils/store";
import { CANVASS_TEXTS } from "./utils/texts";

const CanvassMap = lazy(async () => ({ default: (await import("./components/CanvassMap")).CanvassMap }));

/** The result buttons' order at the bottom of the screen (the most frequent first). */
const GRID: ResultCode[] = ["not_home", "contacted", "refused", "come_back", "moved", "deceased", "inaccessible"];
// every result code has its button
if (GRID.length !== RESULT_CODES.length) throw new Error("a result code has no button");

function DoorScreen({ user, session, listId }: FieldContext & { listId: string }) {
  const store = useCanvassStore();
  const { copy, marks, orgMap, problem, streets, refresh } = useListCopy(session, listId);
  const waitingHere = useLocalCopy((s) => s.waiting(user.userId, listId), [user.userId, listId]) ?? [];
  const gps = useGps();
  const [params, setParams] = useSearchParams();
  const [recording, setRecording] = useState<ResultCode | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [showAll, setShowAll] = useState(false);
  const t = CANVASS_TEXTS;

  const doors = copy?.bundle.doors ?? [];
  const shown = useMemo(() => shownStates(copy?.states ?? [], marks), [copy?.states, marks]);
  const contacts = useMemo(
    () => (copy?.contacts ? new Map(copy.contacts.map((c) => [c.voterId as string, c])) : null),
    [copy?.contacts],
  );
  const waitingDoors = new Set(waitingHere.map((i) => i.doorId as string));
  const firstOpen = doors.find((d) => !shown.has(d.id)) ?? doors[0];
  const current: BundleDoor | undefined = doors.find((d) => d.id === params.get("door")) ?? firstOpen;
  const index = current ? doors.indexOf(current) : -1;

  if (copy === undefined) return <Loading label="Loading the walk list" />;
  if (copy === null)
    return (
      <Callout.Root color={problem ? "red" : "amber"} data-testid="canvass.list.unavailable">
        <Callout.Text>
          {problem ?? (session.connection === "offline" ? t.listUnavailable : "Loading the walk list…")}
        </Callout.Text>
      </Callout.Root>
    );

  const { bundle } = copy;
  const go = (doorId: string) => {
    setRecording(null);
    setParams({ door: doorId }, { replace: true });
    window.scrollTo({ top: 0 });
  };
  const near = gps.position
    ? { lat: gps.position.lat, lng: gps.position.lng, from: "position" as const }
    : current
      ? { lat: current.lat, lng: current.lng, from: "door" as const }
      : null;
  const closest = near ? nearestOpenDoors(doors, shown, near, 3, current?.id ?? null) : [];
  const knocked = doors.filter((d) => shown.has(d.id)).length;

  const save = async (action: NewAction, who: string | null) => {
    if (!current) return;
    const label = `${actionLabel(current, action.result)}${who ? ` (${who})` : ""}`;
    await store.record(user.userId, listId, action, label);
    setSaved(t.recorded(label));
    setRecording(null);
    // on to the next door of the walk still to knock
    const after = doors.slice(index + 1).find((d) => !shown.has(d.id) && d.claim !== "other");
    go((after ?? current).id);
  };

  if (recording && current)
    return (
      <RecordForm
        door={current}
        result={recording}
        survey={bundle.survey}
        contacts={contacts}
        canEditVoters={user.canEditVoters}
        gps={gps.consent ? gps.stamp : undefined}
        onSave={(action, who) => void save(action, who)}
        onCancel={() => setRecording(null)}
      />
    );

  const state = current ? shown.get(current.id) : undefined;
  return (
    <Flex direction="column" gap="4" pb="9" data-testid="canvass.door.screen">
      <Box>
        <Heading as="h1" size="6" style={{ overflowWrap: "anywhere" }} data-testid="canvass.list.name">
          {bundle.list.name}
        </Heading>
        <Text size="2" color="gray" data-testid="canvass.list.progress">
          {t.listProgress(knocked, doors.length)}
        </Text>
        {problem && (
          <Callout.Root color="red" mt="2" data-testid="canvass.list.problem">
            <Callout.Text>{problem}</Callout.Text>
          </Callout.Root>
        )}
        {!bundle.list.open && (
          <Callout.Root color="red" mt="2">
            <Callout.Text>{t.listClosed}</Callout.Text>
          </Callout.Root>
        )}
      </Box>

      <Suspense fallback={<Box style={{ height: 200 }} />}>
        <CanvassMap
          doors={doors}
          shown={shown}
          currentId={current?.id ?? null}
          orgMap={orgMap}
          position={gps.position}
          onSelect={go}
        />
      </Suspense>
      <Text size="1" color="gray" data-testid="canvass.streetsOffline" data-state={streets}>
        {streets === "ready"
          ? "Streets of this turf are kept for offline use."
          : streets === "caching"
            ? "Keeping this turf's streets for offline use…"
            : streets === "failed"
              ? "This turf's streets could not be kept for offline use."
              : ""}
      </Text>

      {saved && (
        <Callout.Root color="green" size="1" role="status" data-testid="canvass.saved">
          <Callout.Text>{saved}</Callout.Text>
        </Callout.Root>
      )}

      {current ? (
        <Card size="3" data-testid="canvass.door" data-door={current.id}>
          <Flex direction="column" gap="2">
            <Text size="2" color="gray" data-testid="canvass.door.position">
              {t.doorOf(index + 1, doors.length)}
            </Text>
            <Heading as="h2" size="5" style={{ overflowWrap: "anywhere" }} data-testid="canvass.door.name">
              {doorName(current)}
            </Heading>
            <Flex gap="2" wrap="wrap">
              <Badge color={state ? "green" : "gray"} size="2" data-testid="canvass.door.state">
                {state ? t.lastResult(RESULT_LABELS[state.result], timeText(state.at)) : t.notKnocked}
              </Badge>
              {waitingDoors.has(current.id) && (
                <Badge color="amber" size="2">
                  {t.waitingHere}
                </Badge>
              )}
              {current.claim === "other" && (
                <Badge color="gray" size="2">
                  {t.claimedByTeammate}
                </Badge>
              )}
              {current.claim === "mine" && (
                <Badge color="indigo" size="2">
                  {t.yoursUntil(
                    timeText(bundle.myClaims.find((c) => c.doorId === current.id)?.expiresAt ?? Date.now()),
                  )}
                </Badge>
              )}
            </Flex>
            {current.voters.length > 0 ? (
              <Flex asChild direction="column" gap="1">
                <ul style={{ margin: 0, paddingLeft: 18 }}>
                  {current.voters.map((v) => (
                    <li key={v.id}>
                      <Text size="3" weight="medium">
                        {v.name}
                      </Text>
                      <Text size="2" color="gray">
                        {[v.age !== null ? ` · ${v.age}` : "", v.party ? ` · ${v.party}` : ""].join("")}
                      </Text>
                    </li>
                  ))}
                </ul>
              </Flex>
            ) : (
              <Text size="2" color="gray">
                {current.voterCount > 0 ? t.votersHidden : t.noVoters}
              </Text>
            )}
          </Flex>
        </Card>
      ) : (
        <Text color="gray">{t.noVoters}</Text>
      )}

      <Box>
        <Heading as="h2" size="4" mb="2">
          {t.nextClosest}
        </Heading>
        {closest.length === 0 ? (
          <Text size="2" color="gray">
            {t.allDoorsKnocked}
          </Text>
        ) : (
          <Flex direction="column" gap="2" data-testid="canvass.closest">
            {near && (
              <Text size="1" color="gray">
                {t.nextClosestFrom(near.from)}
              </Text>
            )}
            {closest.map(({ door, metres }) => (
              <Button
                key={door.id}
                size="3"
                variant="surface"
                onClick={() => go(door.id)}
                style={{ justifyContent: "space-between", minHeight: 48, height: "auto" }}
              >
                <Text style={{ overflowWrap: "anywhere", textAlign: "left" }}>{doorName(door)}</Text>
                <Text size="2">{distanceText(metres)}</Text>
              </Button>
            ))}
          </Flex>
        )}
      </Box>

      <Box>
        <Button size="3" variant="soft" color="gray" onClick={() => setShowAll((v) => !v)} aria-expanded={showAll}>
          {t.allDoors(doors.length)}
        </Button>
        {showAll && (
          <Flex asChild direction="column" gap="1" mt="2">
            <ol style={{ listStyle: "none", margin: 0, padding: 0 }} data-testid="canvass.doors">
              {doors.map((d) => {
                const s = shown.get(d.id);
                return (
                  <li key={d.id}>
                    <Button
                      variant={d.id === current?.id ? "soft" : "ghost"}
                      size="3"
                      onClick={() => go(d.id)}
                      style={{ width: "100%", justifyContent: "space-between", minHeight: 44, height: "auto" }}
                    >
                      <Text style={{ overflowWrap: "anywhere", textAlign: "left" }}>
                        {d.order}. {doorName(d)}
                      </Text>
                      <Text size="1" color={s ? "green" : "gray"}>
                        {s ? RESULT_LABELS[s.result] : d.claim === "other" ? t.claimedByTeammate : ""}
                      </Text>
                    </Button>
                  </li>
                );
              })}
            </ol>
          </Flex>
        )}
      </Box>

      <ClaimPanel
        bundle={bundle}
        online={session.live && session.connection === "online"}
        near={near}
        onChanged={refresh}
        onOpenDoor={go}
      />

      <Card size="2">
        <Flex direction="column" gap="2">
          <Text as="label" size="3" weight="medium">
            <Flex gap="3" align="center" justify="between" style={{ minHeight: 44 }}>
              {t.gpsSwitch}
              <Switch size="3" checked={gps.consent} onCheckedChange={gps.setConsent} data-testid="canvass.gps" />
            </Flex>
          </Text>
          <Text size="2" color="gray">
            {t.gpsHelp}
          </Text>
          {gps.unavailable && (
            <Text size="2" color="amber">
              {t.gpsUnavailable}
            </Text>
          )}
        </Flex>
      </Card>

      <OutboxIssues userId={user.userId} listId={listId} />

      {current && (
        <Box
          p="3"
          style={{
            position: "sticky",
            bottom: 0,
            zIndex: 1000,
            background: "var(--color-panel-solid)",
            borderTop: "1px solid var(--gray-a5)",
            margin: "0 calc(-1 * var(--space-3))",
          }}
        >
          <Flex gap="2" mb="2">
            <Button
              size="3"
              variant="soft"
              color="gray"
              disabled={index <= 0}
              onClick={() => go(doors[index - 1].id)}
              style={{ flex: 1 }}
            >
              {t.previous}
            </Button>
            <Button
              size="3"
              variant="soft"
              color="gray"
              disabled={index >= doors.length - 1}
              onClick={() => go(doors[index + 1].id)}
              style={{ flex: 1 }}
            >
              {t.next}
            </Button>
          </Flex>
          <Grid columns="4" gap="2" role="group" aria-label={t.resultsHeading} data-testid="canvass.results">
            {GRID.map((r) => (
              <Button
                key={r}
                size="3"
                variant={r === "contacted" ? "solid" : "surface"}
                onClick={() => {
                  setSaved(null);
                  setRecording(r);
                  window.scrollTo({ top: 0 });
                }}
                style={{ minHeight: 48, height: "auto", padding: "4px 2px", whiteSpace: "normal", fontSize: 13 }}
              >
                {RESULT_LABELS[r]}
              </Button>
            ))}
          </Grid>
        </Box>
      )}
    </Flex>
  );
}

/** /canvass/:listId: door by door in walking order, online or not (issue 38). */
export function CanvassListPage() {
  const { listId = "" } = useParams();
  return (
    <CanvassFrame back={{ to: ROUTES.canvass, label: CANVASS_TEXTS.backToLists }}>
      {(ctx) => <DoorScreen {...ctx} listId={listId} />}
    </CanvassFrame>
  );
}
