import { MagnifyingGlassIcon } from "@radix-ui/react-icons";
import {
  Badge,
  Box,
  Button,
  Callout,
  DataList,
  Dialog,
  Flex,
  Grid,
  Heading,
  RadioGroup,
  Text,
  TextArea,
  TextField,
} from "@radix-ui/themes";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { ADDRESS_MATCH } from "@convex/lib/petitions/match";
import { useDebounced } from "@/lib/useDebounced";
import { toast } from "@/ui/toast";
import { ACTION_HELP, percent, reasonLabel, STATUS_COLORS, STATUS_LABELS } from "../utils/petitionDisplay";
import { PagePreview } from "./PagePreview";
import { Loading } from "@/ui/Loading";
import { useLineDetail, useLineReview, useSignerSearch } from "../hooks/useLineReview";

const HEARTBEAT_MS = 30_000;
const SEARCH_DEBOUNCE_MS = 250;
type Action = "accept" | "cure" | "overrule" | "reject";
type VoterBrief = (typeof api.petitions.searchVoters)["_returnType"][number];

function VoterChoice({ v, extra }: { v: VoterBrief | undefined; extra?: React.ReactNode }) {
  return (
    <>
      <Text size="2" weight="medium">
        {v?.name ?? "Voter"}
      </Text>{" "}
      {extra}
      <Text as="div" size="1">
        {v?.address || "no address"} · {v?.status || "status unknown"}
        {v?.registered ? ` · registered ${v.registered}` : ""}
        {v?.voterFileId ? ` · voter ID ${v.voterFileId}` : ""}
      </Text>
    </>
  );
}

/**
 * The voter file searched from the dialog (petitions.searchVoters): by name, address or voter ID,
 * for a line whose signer the matcher did not find (a married name, a bad spelling, a move).
 */
function VoterSearch({ chosen, onChoose }: { chosen: string | null; onChoose(v: VoterBrief): void }) {
  const [term, setTerm] = useState("");
  const debounced = useDebounced(term.trim(), SEARCH_DEBOUNCE_MS);
  const results = useSignerSearch(debounced);
  return (
    <div>
      <Text as="label" size="2" weight="bold" htmlFor="voter-search">
        Search the voter file
      </Text>
      <Text as="div" size="1" color="gray" id="voter-search-help" mb="1">
        Name, address or voter ID, for example "Rosa Delgado", "31 Elm St" or "OR0000777".
      </Text>
      <TextField.Root
        id="voter-search"
        type="search"
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        placeholder="Name, address or voter ID"
        aria-describedby="voter-search-help"
      >
        <TextField.Slot>
          <MagnifyingGlassIcon />
        </TextField.Slot>
      </TextField.Root>
      {debounced.length >= 2 && (
        <Box mt="2" aria-live="polite">
          {results === undefined ? (
            <Loading inline size="2" />
          ) : results.length === 0 ? (
            <Text size="2" color="gray">
              No voter matches "{debounced}".
            </Text>
          ) : (
            <RadioGroup.Root
              value={chosen && results.some((r) => r.id === chosen) ? chosen : ""}
              onValueChange={(id) => onChoose(results.find((r) => r.id === id)!)}
              aria-label="Voters found"
            >
              {results.map((r) => (
                <RadioGroup.Item key={r.id} value={r.id} data-testid="adjudicate.searchResult">
                  <VoterChoice v={r} />
                </RadioGroup.Item>
              ))}
            </RadioGroup.Root>
          )}
        </Box>
      )}
    </div>
  );
}

/**
 * Adjudicate a claimed line: the page scan beside the line and its candidate voters with the
 * evidence, then accept, cure, overrule or reject with notes. The claim is kept alive while the
 * dialog is open and released when it closes.
 */
export function AdjudicateDialog({ lineId, onClose }: { lineId: Id<"petitionLines"> | null; onClose(): void }) {
  const { detail, adjudicate, heartbeat, release } = useLineReview(lineId);
  const [action, setAction] = useState<Action>("accept");
  const [voter, setVoter] = useState<string | null>(null);
  const [found, setFound] = useState<VoterBrief | null>(null);
  const [notes, setNotes] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!lineId) return;
    const t = window.setInterval(() => void heartbeat({ id: lineId }), HEARTBEAT_MS);
    return () => {
      window.clearInterval(t);
      void release({ id: lineId });
    };
  }, [lineId, heartbeat, release]);

  const line = detail?.line;
  // pre-selected: the line's voter only when the signer's address is theirs, never a namesake living elsewhere
  const atAddress =
    line?.candidates.find((c) => c.voterId === line.voterId && c.addressScore >= ADDRESS_MATCH)?.voterId ?? null;
  const chosen = voter ?? atAddress;
  const chosenBrief = detail?.voters.find((x) => x.id === chosen) ?? (found?.id === chosen ? found : undefined);
  const canOverrule = line?.status === "failed" || line?.status === "verified";
  const counts = action === "accept" || action === "cure" || (action === "overrule" && line?.status !== "verified");
  const submit = async () => {
    if (!lineId) return;
    setBusy(true);
    try {
      await adjudicate({ id: lineId, action, notes, voterId: counts ? (chosen as Id<"voters"> | null) : null });
      toast.success("Line adjudicated");
      onClose();
    } catch (e) {
      toast.failure("Not adjudicated", e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={lineId !== null} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="1000px" aria-describedby={undefined}>
        <Dialog.Title>Adjudicate Signature</Dialog.Title>
        {!detail || !line ? (
          <Loading size="2" />
        ) : (
          <Grid columns={{ initial: "1", md: "1fr 1fr" }} gap="4">
            <Box>
              <Heading as="h3" size="2" mb="2">
                Page {line.pageNumber}, line {line.signerNumber}
              </Heading>
              <PagePreview url={detail.pageUrl} contentType={detail.pageType} label={`Page ${line.pageNumber} scan`} />
            </Box>
            <Flex direction="column" gap="3">
              <DataList.Root size="2">
                <DataList.Item>
                  <DataList.Label>Name</DataList.Label>
                  <DataList.Value>{line.name}</DataList.Value>
                </DataList.Item>
                <DataList.Item>
                  <DataList.Label>Address</DataList.Label>
                  <DataList.Value>{line.address || "—"}</DataList.Value>
                </DataList.Item>
                <DataList.Item>
                  <DataList.Label>Signed</DataList.Label>
                  <DataList.Value>{line.signedOn ?? "—"}</DataList.Value>
                </DataList.Item>
                <DataList.Item>
                  <DataList.Label>Result</DataList.Label>
                  <DataList.Value>
                    <Badge color={STATUS_COLORS[line.status]}>{STATUS_LABELS[line.status]}</Badge>&nbsp;
                    {reasonLabel(line.reason)} {line.confidence !== null && `(${percent(line.confidence)})`}
                  </DataList.Value>
                </DataList.Item>
              </DataList.Root>
              <div>
                <Text as="div" size="2" weight="bold" id="candidates-label" mb="1">
                  Candidate voters
                </Text>
                {line.candidates.length === 0 ? (
                  <Text size="2" color="gray">
                    No voter in the file resembles this signer. Search the voter file below.
                  </Text>
                ) : (
                  <RadioGroup.Root
                    value={chosen && line.candidates.some((c) => c.voterId === chosen) ? chosen : ""}
                    onValueChange={setVoter}
                    aria-labelledby="candidates-label"
                  >
                    {line.candidates.map((c) => {
                      const v = detail.voters.find((x) => x.id === c.voterId);
                      return (
                        <RadioGroup.Item key={c.voterId} value={c.voterId}>
                          <VoterChoice
                            v={v}
                            extra={
                              <Text size="1" color="gray">
                                {percent(c.score)}
                              </Text>
                            }
                          />
                          <Text as="div" size="1" color="gray">
                            Name: {c.evidence.name}. Address: {c.evidence.address}.
                          </Text>
                        </RadioGroup.Item>
                      );
                    })}
                  </RadioGroup.Root>
                )}
              </div>
              <VoterSearch
                chosen={chosen}
                onChoose={(v) => {
                  setFound(v);
                  setVoter(v.id);
                }}
              />
              <Text as="div" size="2" data-testid="adjudicate.chosen" aria-live="polite">
                {chosenBrief ? (
                  <>
                    Chosen voter: <strong>{chosenBrief.name}</strong>
                    {chosenBrief.voterFileId ? ` (voter ID ${chosenBrief.voterFileId})` : ""}
                  </>
                ) : counts ? (
                  "Choose the voter this signature belongs to: a candidate, or one found by searching."
                ) : (
                  "No voter needed to reject."
                )}
              </Text>
              <div>
                <Text as="div" size="2" weight="bold" id="action-label" mb="1">
                  Decision
                </Text>
                <RadioGroup.Root
                  value={action}
                  onValueChange={(v) => setAction(v as Action)}
                  aria-labelledby="action-label"
                >
                  {(["accept", "cure", "overrule", "reject"] as const)
                    .filter((a) => a !== "overrule" || canOverrule)
                    .map((a) => (
                      <RadioGroup.Item key={a} value={a}>
                        <Text size="2">{ACTION_HELP[a]}</Text>
                      </RadioGroup.Item>
                    ))}
                </RadioGroup.Root>
              </div>
              <Text as="label" size="2" weight="medium">
                Notes
                <TextArea
                  value={notes}
                  onChange={(e) => setNotes(e.target.value)}
                  rows={3}
                  placeholder="What you checked and why"
                />
              </Text>
              {line.claimedBy === null && (
                <Callout.Root color="amber" size="1">
                  <Callout.Text>
                    Your claim on this line lapsed: saving still works unless a teammate has claimed it since.
                  </Callout.Text>
                </Callout.Root>
              )}
            </Flex>
          </Grid>
        )}
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={busy} disabled={!line || (counts && !chosen)} onClick={() => void submit()}>
            Save Decision
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** A duplicate line beside the line that already counts for the same voter. */
export function DuplicatesDialog({ lineId, onClose }: { lineId: Id<"petitionLines"> | null; onClose(): void }) {
  const detail = useLineDetail(lineId);
  const d = detail?.duplicate;
  return (
    <Dialog.Root open={lineId !== null} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="640px" aria-describedby={undefined}>
        <Dialog.Title>Duplicate Signature</Dialog.Title>
        {!detail ? (
          <Loading size="2" />
        ) : (
          <Grid columns={{ initial: "1", sm: "2" }} gap="3">
            <Box>
              <Heading as="h3" size="2" mb="1">
                This line
              </Heading>
              <Text as="div" size="2">
                {detail.line.name}
              </Text>
              <Text as="div" size="2" color="gray">
                {detail.line.address} · page {detail.line.pageNumber}, line {detail.line.signerNumber}
              </Text>
            </Box>
            <Box>
              <Heading as="h3" size="2" mb="1">
                Already counted
              </Heading>
              {d ? (
                <>
                  <Text as="div" size="2">
                    {d.name}
                  </Text>
                  <Text as="div" size="2" color="gray">
                    {d.address} · {detail.petitionName}, page {d.pageNumber}, line {d.signerNumber}
                  </Text>
                  <Text as="div" size="2">
                    Voter: {d.voterName ?? detail.line.voterName}
                  </Text>
                </>
              ) : (
                <Text size="2" color="gray">
                  The earlier line was removed.
                </Text>
              )}
            </Box>
          </Grid>
        )}
        <Flex justify="end" mt="4">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Close
            </Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
