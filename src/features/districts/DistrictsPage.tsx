import { Box, Callout, Card, Flex, Heading, Select, Text } from "@radix-ui/themes";
import { useMemo } from "react";
import { Link, useSearchParams } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { DISTRICT_KIND_LABELS, type DistrictKind, type DistrictMeasure } from "@convex/lib/districts";
import { useOrgMap } from "@/lib/map/useOrgMap";
import { ROUTES } from "@/lib/routes";
import { useViewer } from "@/session/ViewerProvider";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";
import { PageHeader } from "@/ui/PageHeader";
import { DistrictList } from "./components/DistrictList";
import { DistrictMap } from "./components/DistrictMap";
import { DistrictPanel } from "./components/DistrictPanel";
import { useDistrictActions, useDistrictOverview, useDistricts, type DistrictRow } from "./hooks/useDistricts";
import { districtTitle } from "./utils/display";
import { choicesOf, formatMeasure, legend, measureOf, shadeOf, steps, type MeasureChoice } from "./utils/measure";

const TITLE = "Districts";
const MEASURES: { value: DistrictMeasure; label: string }[] = [
  { value: "voters", label: "Voters" },
  { value: "party", label: "Party share" },
  { value: "turnout", label: "Turnout in an election" },
];

function EmptyState() {
  return (
    <Card data-testid="districts.empty">
      <Heading as="h2" size="4" mb="2">
        No districts yet
      </Heading>
      <Text as="p" size="2" mb="2">
        Districts come from boundary layers — precincts (VTD), state house and senate, congressional, county and city
        boundaries from the Census TIGER/Line files, or your own ward map as GeoJSON — and from voter-file columns such
        as precinct, congressional or state house district.
      </Text>
      <Text as="p" size="2">
        An admin adds boundaries under <Link to={ROUTES.mapData}>Account Settings → Map data</Link>; imported voters
        with district columns appear here by themselves.
      </Text>
    </Card>
  );
}

/**
 * /districts (issue 37): the organisation's districts by kind, live — a map of their outlines
 * shaded by voters, a party's share or turnout in an election, a list with counts and code/map
 * disagreements, and each district's page (counts by party and status, turnout history,
 * disagreements; view its voters, make a group). The kind, measure and open district live in the
 * URL.
 */
export function DistrictsPage() {
  const { me, can } = useViewer();
  const [params, setParams] = useSearchParams();
  const set = (changes: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes))
          if (v) next.set(k, v);
          else next.delete(k);
        return next;
      },
      { replace: true },
    );
  const canView = can("voters.view");
  const openId = params.get("district");
  const wantedKind = params.get("kind") as DistrictKind | null;
  const orgMap = useOrgMap();
  const overview = useDistrictOverview(canView);
  const kinds = overview?.kinds ?? [];
  const kind = kinds.find((k) => k.kind === wantedKind)?.kind ?? kinds[0]?.kind ?? null;
  const { list, outlines, open } = useDistricts(canView ? kind : null, canView ? openId : null);
  const { makeGroup, makeEmailSegment } = useDistrictActions();
  const districts = useMemo(() => list?.districts ?? [], [list]);
  const choices = useMemo(() => choicesOf(districts), [districts]);
  const measure = (params.get("measure") as DistrictMeasure | null) ?? "voters";
  const choice: MeasureChoice = {
    measure,
    party: params.get("party") ?? choices.parties[0] ?? "",
    election: params.get("election") ?? choices.elections[0] ?? "",
  };
  const valueOf = (d: DistrictRow) => measureOf(d, choice);
  const range = steps(districts.map(valueOf));
  const shading = new Map(
    districts.map((d) => [
      d.id,
      {
        fill: shadeOf(valueOf(d), range),
        name: districtTitle(d.kind, d.name),
        value: formatMeasure(valueOf(d), measure),
      },
    ]),
  );

  if (me === undefined) return <Loading />;
  const header = (
    <PageHeader title={TITLE} breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: TITLE }]} />
  );
  if (!canView)
    return (
      <Box>
        {header}
        <NoPermission />
      </Box>
    );
  if (overview === undefined) return <Loading />;
  const run = overview.run;
  const hasOutlines = (outlines?.outlines.length ?? 0) > 0;

  return (
    <Box>
      {header}
      {run?.status === "running" && (
        <Callout.Root mb="3" size="1" data-testid="districts.run">
          <Callout.Text>
            Assigning voters to districts ({run.reason}): {run.processed.toLocaleString("en-US")} of{" "}
            {run.total.toLocaleString("en-US")}. The counts below grow as it goes.
          </Callout.Text>
        </Callout.Root>
      )}
      {kinds.length === 0 ? (
        overview.boundaryLayers > 0 ? (
          <Card data-testid="districts.preparing">
            <Text size="2">
              Your boundary layers are being turned into districts; they appear here as they are ready.
            </Text>
          </Card>
        ) : (
          <EmptyState />
        )
      ) : (
        <>
          <Flex gap="3" mb="3" wrap="wrap" align="end">
            <Flex direction="column" gap="1">
              <Text as="label" size="2" weight="medium" id="districts-kind">
                Kind
              </Text>
              <Select.Root value={kind ?? undefined} onValueChange={(v) => set({ kind: v, district: null })}>
                <Select.Trigger aria-labelledby="districts-kind" />
                <Select.Content>
                  {kinds.map((k) => (
                    <Select.Item key={k.kind} value={k.kind}>
                      {DISTRICT_KIND_LABELS[k.kind]}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </Flex>
            <Flex direction="column" gap="1">
              <Text as="label" size="2" weight="medium" id="districts-measure">
                Shade by
              </Text>
              <Select.Root value={measure} onValueChange={(v) => set({ measure: v === "voters" ? null : v })}>
                <Select.Trigger aria-labelledby="districts-measure" />
                <Select.Content>
                  {MEASURES.map((m) => (
                    <Select.Item key={m.value} value={m.value}>
                      {m.label}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </Flex>
            {measure === "party" && choices.parties.length > 0 && (
              <Flex direction="column" gap="1">
                <Text as="label" size="2" weight="medium" id="districts-party">
                  Party
                </Text>
                <Select.Root value={choice.party} onValueChange={(v) => set({ party: v })}>
                  <Select.Trigger aria-labelledby="districts-party" />
                  <Select.Content>
                    {choices.parties.map((p) => (
                      <Select.Item key={p} value={p}>
                        {p}
                      </Select.Item>
                    ))}
                  </Select.Content>
                </Select.Root>
              </Flex>
            )}
            {measure === "turnout" && choices.elections.length > 0 && (
              <Flex direction="column" gap="1">
                <Text as="label" size="2" weight="medium" id="districts-election">
                  Election
                </Text>
                <Select.Root value={choice.election} onValueChange={(v) => set({ election: v })}>
                  <Select.Trigger aria-labelledby="districts-election" />
                  <Select.Content>
                    {choices.elections.map((e) => (
                      <Select.Item key={e} value={e}>
                        {e}
                      </Select.Item>
                    ))}
                  </Select.Content>
                </Select.Root>
              </Flex>
            )}
          </Flex>
          {measure === "turnout" && choices.elections.length === 0 && (
            <Text as="p" size="2" color="gray" mb="3">
              These voters have no vote history yet: import a vote-history file to see turnout.
            </Text>
          )}
          {hasOutlines && (
            <Box mb="3">
              <DistrictMap
                outlines={outlines!.outlines}
                shading={shading}
                selectedId={(openId as Id<"districts"> | null) ?? null}
                onSelect={(id) => set({ district: id })}
                orgMap={orgMap}
              />
              <Flex gap="3" mt="2" wrap="wrap" aria-label="Legend" role="list" data-testid="districts.legend">
                {legend(range, measure).map((l) => (
                  <Flex key={l.color} gap="1" align="center" role="listitem">
                    <span
                      aria-hidden
                      style={{
                        width: 14,
                        height: 14,
                        background: l.color,
                        border: "1px solid #6b7280",
                        borderRadius: 2,
                      }}
                    />
                    <Text size="1">{l.label}</Text>
                  </Flex>
                ))}
              </Flex>
              {outlines?.truncated && (
                <Text as="p" size="1" color="gray" mt="1">
                  Only part of this layer&apos;s outlines is drawn (it is very large); the list holds every district.
                </Text>
              )}
            </Box>
          )}
          {kind && !hasOutlines && outlines !== undefined && (
            <Text as="p" size="2" color="gray" mb="3">
              These districts come from voter-file codes only; add their boundaries under{" "}
              <Link to={ROUTES.mapData}>Map data</Link> to see them on the map.
            </Text>
          )}
          {list === undefined ? (
            <Loading />
          ) : (
            <Card>
              <DistrictList
                districts={districts}
                measure={measure}
                valueOf={valueOf}
                onOpen={(id) => set({ district: id })}
              />
              {list.truncated && (
                <Text as="p" size="1" color="gray" mt="2">
                  Only the first {districts.length.toLocaleString("en-US")} districts are listed.
                </Text>
              )}
            </Card>
          )}
        </>
      )}
      {openId && (
        <DistrictPanel
          district={open}
          onClose={() => set({ district: null })}
          canMakeGroup={can("voters.manage")}
          canMakeSegment={can("campaigns.manage")}
          makeGroup={makeGroup}
          makeEmailSegment={makeEmailSegment}
        />
      )}
    </Box>
  );
}
