import { Box, Button, Callout, Dialog, Flex, Heading, Table, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { Link } from "react-router-dom";
import { DISTRICT_KIND_SINGULAR } from "@convex/lib/districts";
import { ROUTES } from "@/lib/routes";
import { ScrollTable } from "@/ui/ScrollTable";
import { toast } from "@/ui/toast";
import type { DistrictDetail } from "../hooks/useDistricts";
import { districtVotersPath, districtTitle, percent } from "../utils/display";
import { DisagreeingVoters } from "./DisagreeingVoters";

function Counts({ label, rows, total }: { label: string; rows: [string, number][]; total: number }) {
  if (rows.length === 0) return null;
  return (
    <Box mb="4">
      <Heading as="h2" size="3" mb="2">
        {label}
      </Heading>
      <ScrollTable label={label}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>{label === "By party" ? "Party" : "Status"}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell justify="end">Voters</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell justify="end">Share</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map(([name, n]) => (
            <Table.Row key={name}>
              <Table.Cell>{name || "None given"}</Table.Cell>
              <Table.Cell justify="end">{n.toLocaleString("en-US")}</Table.Cell>
              <Table.Cell justify="end">{percent(n, total)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </ScrollTable>
    </Box>
  );
}

function sum(cells: DistrictDetail["cells"], by: "party" | "status"): [string, number][] {
  const m = new Map<string, number>();
  for (const c of cells) m.set(c[by], (m.get(c[by]) ?? 0) + c.count);
  return [...m].sort((a, b) => b[1] - a[1]);
}

/**
 * One district (a dialog over the page, full width on a phone): its voters by party and status,
 * turnout in each election of the vote history, where codes and the map disagree (and, asked,
 * which voters), and its actions — view its voters (the voter list filtered by it), make a group
 * or an email segment of them.
 */
export function DistrictPanel({
  district,
  onClose,
  canMakeGroup,
  canMakeSegment,
  makeGroup,
  makeEmailSegment,
}: {
  district: DistrictDetail | null | undefined;
  onClose(): void;
  canMakeGroup: boolean;
  canMakeSegment: boolean;
  makeGroup(args: { id: DistrictDetail["id"]; name: string }): Promise<unknown>;
  makeEmailSegment(args: { id: DistrictDetail["id"]; name: string }): Promise<unknown>;
}) {
  // the audience being named: a voter group (texting, walk lists, email) or an email segment
  const [making, setMaking] = useState<{ what: "group" | "segment"; name: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [showDisagreeing, setShowDisagreeing] = useState(false);
  const title = district ? districtTitle(district.kind, district.name) : "District";
  const create = async () => {
    if (!district || making === null) return;
    setBusy(true);
    const name = making.name.trim();
    try {
      if (making.what === "group") {
        await makeGroup({ id: district.id, name: making.name });
        toast.success(
          `Group "${name}" created; its ${district.voters.toLocaleString("en-US")} voters are being added.`,
        );
      } else {
        await makeEmailSegment({ id: district.id, name: making.name });
        toast.success(`Email segment "${name}" created; its voters with an email are being counted.`);
      }
      setMaking(null);
    } catch (e) {
      toast.failure(making.what === "group" ? "Could not make the group" : "Could not make the segment", e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="640px" data-testid="districts.panel">
        <Dialog.Title>{title}</Dialog.Title>
        {district === undefined ? (
          <Dialog.Description>Loading…</Dialog.Description>
        ) : district === null ? (
          <Dialog.Description>This district no longer exists.</Dialog.Description>
        ) : (
          <>
            <Dialog.Description size="2" color="gray" mb="3">
              {DISTRICT_KIND_SINGULAR[district.kind]}
              {district.code ? ` · code ${district.code}` : ""} ·{" "}
              {district.hasOutline
                ? `outline from ${district.layerName ?? "a boundaries layer"}`
                : "from voter-file codes (no outline on the map)"}
            </Dialog.Description>
            <Flex gap="3" align="baseline" mb="4" wrap="wrap">
              <Text size="6" weight="bold" data-testid="districts.panel.voters">
                {district.voters.toLocaleString("en-US")}
              </Text>
              <Text color="gray">voters</Text>
            </Flex>
            <Flex gap="2" wrap="wrap" mb="4">
              <Button asChild>
                <Link to={districtVotersPath(district.filter, title)}>View its voters</Link>
              </Button>
              {canMakeGroup && making === null && (
                <Button variant="soft" onClick={() => setMaking({ what: "group", name: title })}>
                  Make a group
                </Button>
              )}
              {canMakeSegment && making === null && (
                <Button variant="soft" onClick={() => setMaking({ what: "segment", name: title })}>
                  Make an email segment
                </Button>
              )}
            </Flex>
            {making !== null && (
              <Flex gap="2" mb="4" align="end" wrap="wrap">
                <Box flexGrow="1" minWidth="200px">
                  <Text as="label" size="2" weight="medium" htmlFor="district-audience-name">
                    {making.what === "group" ? "Group name" : "Segment name"}
                  </Text>
                  <TextField.Root
                    id="district-audience-name"
                    value={making.name}
                    onChange={(e) => setMaking({ ...making, name: e.target.value })}
                  />
                </Box>
                <Button onClick={() => void create()} loading={busy}>
                  {making.what === "group" ? "Create group" : "Create segment"}
                </Button>
                <Button variant="soft" color="gray" onClick={() => setMaking(null)}>
                  Cancel
                </Button>
              </Flex>
            )}
            {making?.what === "group" && (
              <Text as="p" size="1" color="gray" mb="3">
                A group is also how a text message campaign reaches these voters.
              </Text>
            )}
            <Box mb="4" data-testid="districts.panel.disagreement">
              <Heading as="h2" size="3" mb="2">
                Codes and map
              </Heading>
              {district.mappedElsewhere === 0 && district.codedElsewhere === 0 ? (
                <Text size="2" color="gray">
                  No disagreement: every voter placed on the map lies where the voter file codes them.
                </Text>
              ) : (
                <Callout.Root color="amber" size="1">
                  <Callout.Text>
                    {district.mappedElsewhere > 0 &&
                      `${district.mappedElsewhere.toLocaleString("en-US")} voters coded to this district are placed in another one on the map. `}
                    {district.codedElsewhere > 0 &&
                      `${district.codedElsewhere.toLocaleString("en-US")} voters placed inside it on the map are coded to another district. `}
                    The voter file's code decides membership.
                  </Callout.Text>
                </Callout.Root>
              )}
              {(district.mappedElsewhere > 0 || district.codedElsewhere > 0) && (
                <>
                  <Button
                    variant="soft"
                    size="1"
                    mt="2"
                    aria-expanded={showDisagreeing}
                    onClick={() => setShowDisagreeing(!showDisagreeing)}
                  >
                    {showDisagreeing ? "Hide voters" : "Show voters"}
                  </Button>
                  {showDisagreeing && district.mappedElsewhere > 0 && (
                    <DisagreeingVoters districtId={district.id} direction="mappedElsewhere" />
                  )}
                  {showDisagreeing && district.codedElsewhere > 0 && (
                    <DisagreeingVoters districtId={district.id} direction="codedElsewhere" />
                  )}
                </>
              )}
            </Box>
            <Counts label="By party" rows={sum(district.cells, "party")} total={district.voters} />
            <Counts label="By status" rows={sum(district.cells, "status")} total={district.voters} />
            <Box mb="2">
              <Heading as="h2" size="3" mb="2">
                Turnout history
              </Heading>
              {district.turnout.length === 0 ? (
                <Text size="2" color="gray">
                  No vote history for these voters yet.
                </Text>
              ) : (
                <ScrollTable label="Turnout history">
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeaderCell>Election</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell justify="end">Voted</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell justify="end">Turnout</Table.ColumnHeaderCell>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {[...district.turnout].reverse().map((t) => (
                      <Table.Row key={t.election}>
                        <Table.Cell>{t.election}</Table.Cell>
                        <Table.Cell justify="end">{t.voted.toLocaleString("en-US")}</Table.Cell>
                        <Table.Cell justify="end">{percent(t.voted, district.voters)}</Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </ScrollTable>
              )}
            </Box>
            <Flex justify="between" mt="4" gap="2" wrap="wrap">
              <Button variant="ghost" asChild>
                <Link to={ROUTES.voterGroups}>Voter groups</Link>
              </Button>
              <Dialog.Close>
                <Button variant="soft" color="gray">
                  Close
                </Button>
              </Dialog.Close>
            </Flex>
          </>
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}
