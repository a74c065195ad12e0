import { Badge, Box, Card, Flex, Grid, Heading, Progress, Table, Text } from "@radix-ui/themes";
import { useMemo, type ReactNode } from "react";
import { FAR_METRES, FAST_MS, RATE_FACTOR, RATE_MIN_ATTEMPTS, type FlagKind } from "@convex/lib/canvass";
import type { OrgMap } from "@/lib/map/useOrgMap";
import { formatDateTime } from "@/lib/dateTime";
import { ScrollTable } from "@/ui/ScrollTable";
import type { CanvassBoard, DoorState, ListMap } from "../hooks/useCanvassDashboard";
import {
  ago,
  doorPoints,
  FLAG_RING,
  flagRows,
  legendRows,
  NOT_KNOCKED,
  percent,
  type FlagRow,
  type LegendRow,
} from "../utils/canvassDisplay";
import { CanvassDashboardMap } from "./CanvassDashboardMap";

const FLAG_COLORS: Record<FlagKind, "orange" | "amber" | "crimson"> = { far: "orange", fast: "amber", rate: "crimson" };
const n = (x: number) => x.toLocaleString("en-US");

type CanvassDashboardProps = {
  board: CanvassBoard;
  states: DoorState[];
  map: ListMap;
  orgMap: OrgMap;
  /** the clock "last activity" is measured against */
  now: number;
};

/**
 * The organiser's live view of one walk list as canvassers record doors: the list's figures, the
 * turf map with doors coloured by result (and its legend), data-quality flags, each canvasser's
 * figures, and the answers to the script's choice questions. Everything comes from live queries.
 */
export function CanvassDashboard({ board, states, map, orgMap, now }: CanvassDashboardProps) {
  const { list } = board;
  const points = useMemo(() => doorPoints(map.doors, states, board.flags), [map.doors, states, board.flags]);
  const legend = useMemo(() => legendRows(states, map.doors.length), [states, map.doors.length]);
  const flags = useMemo(() => flagRows(board, map.doors), [board, map.doors]);
  return (
    <Flex direction="column" gap="4">
      <Grid columns={{ initial: "2", sm: "3", lg: "6" }} gap="3" data-testid="canvass-figures">
        <Figure label="Doors knocked">
          <Text size="6" weight="bold">
            <span data-testid="canvass-knocked">{String(list.doors)}</span>
          </Text>
          <Text size="2" color="gray">{` of ${n(list.doorsTotal)}`}</Text>
          <Progress
            mt="1"
            size="1"
            value={list.doorsTotal ? Math.min(100, (100 * list.doors) / list.doorsTotal) : 0}
            aria-label="Doors knocked"
          />
        </Figure>
        <Figure label="Contacts" value={n(list.contacts)} testId="canvass-contacts" />
        <Figure label="Contact rate" value={percent(list.contactRate)} testId="canvass-rate" />
        <Figure label="Attempts" value={n(list.attempts)} testId="canvass-attempts" />
        <Figure label="Canvassers" value={n(board.canvassers.length)} testId="canvass-canvassers" />
        <Figure label="Last activity" value={ago(list.lastAt, now)} testId="canvass-last" small />
      </Grid>

      <Grid columns={{ initial: "1", md: "3fr 2fr" }} gap="4">
        <Card style={{ minWidth: 0 }}>
          <Heading as="h2" size="4" mb="2">
            Doors by result
          </Heading>
          <CanvassDashboardMap orgMap={orgMap} turfArea={map.turfArea} doors={points} />
          <Legend rows={legend} />
        </Card>
        <Card style={{ minWidth: 0 }}>
          <FlagList rows={flags} />
        </Card>
      </Grid>

      <Card style={{ minWidth: 0 }}>
        <Heading as="h2" size="4" mb="2">
          Canvassers
        </Heading>
        {board.canvassers.length === 0 ? (
          <Text size="2" color="gray" data-testid="canvass-noResults">
            No results yet. Figures appear here as canvassers record doors.
          </Text>
        ) : (
          <ScrollTable label="Canvassers" size="1">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Canvasser</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Doors</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Attempts</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Contacts</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Contact rate</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Flags</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Last activity</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {board.canvassers.map((c) => (
                <Table.Row key={c.id} data-testid="canvass-canvasser-row">
                  <Table.RowHeaderCell>{c.name}</Table.RowHeaderCell>
                  <Table.Cell>{n(c.doors)}</Table.Cell>
                  <Table.Cell>{n(c.attempts)}</Table.Cell>
                  <Table.Cell>{n(c.contacts)}</Table.Cell>
                  <Table.Cell>{percent(c.contactRate)}</Table.Cell>
                  <Table.Cell>
                    <Flex gap="1" align="center" wrap="wrap">
                      <Text>{n(c.flags + (c.rateFlag ? 1 : 0))}</Text>
                      {c.rateFlag && (
                        <Badge color="crimson" size="1">
                          High contact rate
                        </Badge>
                      )}
                    </Flex>
                  </Table.Cell>
                  <Table.Cell style={{ whiteSpace: "nowrap" }}>{ago(c.lastAt, now)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </ScrollTable>
        )}
      </Card>

      <Card style={{ minWidth: 0 }}>
        <Heading as="h2" size="4" mb="2">
          Answers to key questions
        </Heading>
        {board.questions.length === 0 ? (
          <Text size="2" color="gray">
            The list&apos;s script has no choice questions.
          </Text>
        ) : (
          <Grid columns={{ initial: "1", sm: "2" }} gap="3">
            {board.questions.map((q) => (
              <Question key={q.field} label={q.label} options={q.options} />
            ))}
          </Grid>
        )}
      </Card>
    </Flex>
  );
}

function Figure(props: { label: string; value?: string; testId?: string; small?: boolean; children?: ReactNode }) {
  return (
    <Card role="group" aria-label={props.label}>
      <Text as="div" size="2" color="gray">
        {props.label}
      </Text>
      {props.children ?? (
        <Text
          as="div"
          size={props.small ? "4" : "6"}
          weight="bold"
          data-testid={props.testId}
          style={{ overflowWrap: "anywhere" }}
        >
          {props.value}
        </Text>
      )}
    </Card>
  );
}

/** What the map's colours mean, with the doors of each (the map's text equivalent). */
function Legend({ rows }: { rows: LegendRow[] }) {
  return (
    <Box mt="3">
      <Text as="p" size="2" weight="medium" id="canvass-legend-title">
        Legend
      </Text>
      <Flex asChild gap="3" wrap="wrap" mt="1">
        <ul style={{ listStyle: "none", margin: 0, padding: 0 }} aria-labelledby="canvass-legend-title">
          {rows.map((r) => (
            <li key={r.key} data-testid="canvass-legend-item" data-result={r.key}>
              <Flex align="center" gap="1">
                <Swatch fill={r.color} edge={r.key === "not_knocked" ? NOT_KNOCKED.edge : "#ffffff"} />
                <Text size="2">{`${r.label}: ${n(r.doors)}`}</Text>
              </Flex>
            </li>
          ))}
          <li data-testid="canvass-legend-item" data-result="flagged">
            <Flex align="center" gap="1">
              <Swatch fill="transparent" edge={FLAG_RING} ring />
              <Text size="2">Flagged door</Text>
            </Flex>
          </li>
        </ul>
      </Flex>
    </Box>
  );
}

function Swatch({ fill, edge, ring }: { fill: string; edge: string; ring?: boolean }) {
  return (
    <span
      aria-hidden
      style={{
        display: "inline-block",
        width: 12,
        height: 12,
        borderRadius: "50%",
        background: fill,
        border: `${ring ? 3 : 1}px solid ${edge}`,
        boxShadow: ring ? undefined : "0 0 0 1px var(--gray-a7)",
        flexShrink: 0,
      }}
    />
  );
}

/** The data-quality flags, newest first: what, who, which door, when. */
function FlagList({ rows }: { rows: FlagRow[] }) {
  return (
    <Flex direction="column" gap="2">
      <Flex justify="between" align="center" gap="2" wrap="wrap">
        <Heading as="h2" size="4">
          Data-quality flags
        </Heading>
        <Badge color={rows.length ? "crimson" : "gray"} data-testid="canvass-flagCount">
          {n(rows.length)}
        </Badge>
      </Flex>
      <Text size="1" color="gray">
        {`A result more than ${n(FAR_METRES)} m from its door, two doors under ${FAST_MS / 1000} s apart, or a contact rate ${RATE_FACTOR} times the list's or more (after ${RATE_MIN_ATTEMPTS} attempts).`}
      </Text>
      {rows.length === 0 ? (
        <Text size="2" color="gray" data-testid="canvass-noFlags">
          No flags so far.
        </Text>
      ) : (
        <Flex asChild direction="column" gap="3" style={{ maxHeight: 480, overflowY: "auto" }}>
          <ul style={{ listStyle: "none", margin: 0, padding: 0 }} tabIndex={0} aria-label="Data-quality flags">
            {rows.map((f) => (
              <li key={f.key} data-testid="canvass-flag" data-kind={f.kind}>
                <Flex direction="column" gap="1">
                  <Flex align="center" gap="2" wrap="wrap">
                    <Badge color={FLAG_COLORS[f.kind]} size="1">
                      {f.label}
                    </Badge>
                    <Text size="1" color="gray">
                      {formatDateTime(f.at)}
                    </Text>
                  </Flex>
                  <Text size="2">{f.message}</Text>
                  <Text size="1" color="gray" data-testid="canvass-flag-where">
                    {f.door ? `${f.canvasser} · ${f.door}` : f.canvasser}
                  </Text>
                </Flex>
              </li>
            ))}
          </ul>
        </Flex>
      )}
    </Flex>
  );
}

/** One choice question: each option's count with a bar (the counts are the text; the bars only show them). */
function Question({ label, options }: { label: string; options: { option: string; count: number }[] }) {
  const max = Math.max(0, ...options.map((o) => o.count));
  const total = options.reduce((s, o) => s + o.count, 0);
  return (
    <Box data-testid="canvass-question">
      <Text as="p" size="2" weight="medium">
        {label}
      </Text>
      <Text as="p" size="1" color="gray" mb="1">
        {total === 1 ? "1 answer" : `${n(total)} answers`}
      </Text>
      <Flex asChild direction="column" gap="1">
        <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {options.map((o) => (
            <li key={o.option}>
              <Flex align="center" gap="2">
                <Text size="1" style={{ width: 110, flexShrink: 0, overflowWrap: "anywhere" }}>
                  {`${o.option}: ${n(o.count)}`}
                </Text>
                <Box aria-hidden flexGrow="1" style={{ background: "var(--gray-a3)", borderRadius: 4, height: 10 }}>
                  <Box
                    style={{
                      width: `${max ? (o.count / max) * 100 : 0}%`,
                      background: "var(--accent-9)",
                      borderRadius: 4,
                      height: 10,
                    }}
                  />
                </Box>
              </Flex>
            </li>
          ))}
        </ul>
      </Flex>
    </Box>
  );
}
