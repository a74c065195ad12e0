import { Badge, Box, Button, Callout, DataList, Dialog, Flex, Grid, Heading, RadioGroup, Spinner, Text, TextArea } from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";
import { ACTION_HELP, percent, reasonLabel, STATUS_COLORS, STATUS_LABELS } from "../utils/petitionDisplay";
import { PagePreview } from "./PagePreview";

const HEARTBEAT_MS = 30_000;
type Action = "accept" | "cure" | "overrule" | "reject";

/**
 * Adjudicate a claimed line: the page scan beside the line and its candidate voters with the
 * evidence, then accept, cure, overrule or reject with notes. The claim is kept alive while the
 * dialog is open and released when it closes.
 */
export function AdjudicateDialog({ lineId, onClose }: { lineId: Id<"petitionLines"> | null; onClose(): void }) {
  const detail = useQuery(api.petitions.line, lineId ? { id: lineId } : "skip");
  const adjudicate = useMutation(api.petitions.adjudicate);
  const heartbeat = useMutation(api.petitions.heartbeat);
  const release = useMutation(api.petitions.release);
  const [action, setAction] = useState<Action>("accept");
  const [voter, setVoter] = useState<string | null>(null);
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
  const chosen = voter ?? line?.voterId ?? line?.candidates[0]?.voterId ?? null;
  const canOverrule = line?.status === "failed" || line?.status === "verified";
  const submit = async () => {
    if (!lineId) return;
    setBusy(true);
    try {
      await adjudicate({ id: lineId, action, notes, voterId: action === "reject" ? null : (chosen as Id<"voters"> | null) });
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
          <Spinner />
        ) : (
          <Grid columns={{ initial: "1", md: "1fr 1fr" }} gap="4">
            <Box>
              <Heading as="h3" size="2" mb="2">Page {line.pageNumber}, line {line.signerNumber}</Heading>
              <PagePreview url={detail.pageUrl} contentType={detail.pageType} label={`Page ${line.pageNumber} scan`} />
            </Box>
            <Flex direction="column" gap="3">
              <DataList.Root size="2">
                <DataList.Item><DataList.Label>Name</DataList.Label><DataList.Value>{line.name}</DataList.Value></DataList.Item>
                <DataList.Item><DataList.Label>Address</DataList.Label><DataList.Value>{line.address || "—"}</DataList.Value></DataList.Item>
                <DataList.Item><DataList.Label>Signed</DataList.Label><DataList.Value>{line.signedOn ?? "—"}</DataList.Value></DataList.Item>
                <DataList.Item>
                  <DataList.Label>Result</DataList.Label>
                  <DataList.Value><Badge color={STATUS_COLORS[line.status]}>{STATUS_LABELS[line.status]}</Badge>&nbsp;{reasonLabel(line.reason)} {line.confidence !== null && `(${percent(line.confidence)})`}</DataList.Value>
                </DataList.Item>
              </DataList.Root>
              <div>
                <Text as="div" size="2" weight="bold" id="candidates-label" mb="1">Candidate voters</Text>
                {line.candidates.length === 0 ? (
                  <Text size="2" color="gray">No voter in the file resembles this signer.</Text>
                ) : (
                  <RadioGroup.Root value={chosen ?? undefined} onValueChange={setVoter} aria-labelledby="candidates-label">
                    {line.candidates.map((c) => {
                      const v = detail.voters.find((x) => x.id === c.voterId);
                      return (
                        <RadioGroup.Item key={c.voterId} value={c.voterId}>
                          <Text size="2" weight="medium">{v?.name ?? "Voter"}</Text> <Text size="1" color="gray">{percent(c.score)}</Text>
                          <Text as="div" size="1">{v?.address} · {v?.status || "status unknown"}{v?.registered ? ` · registered ${v.registered}` : ""}</Text>
                          <Text as="div" size="1" color="gray">Name: {c.evidence.name}. Address: {c.evidence.address}.</Text>
                        </RadioGroup.Item>
                      );
                    })}
                  </RadioGroup.Root>
                )}
              </div>
              <div>
                <Text as="div" size="2" weight="bold" id="action-label" mb="1">Decision</Text>
                <RadioGroup.Root value={action} onValueChange={(v) => setAction(v as Action)} aria-labelledby="action-label">
                  {(["accept", "cure", "overrule", "reject"] as const).filter((a) => a !== "overrule" || canOverrule).map((a) => (
                    <RadioGroup.Item key={a} value={a}><Text size="2">{ACTION_HELP[a]}</Text></RadioGroup.Item>
                  ))}
                </RadioGroup.Root>
              </div>
              <Text as="label" size="2" weight="medium">Notes<TextArea value={notes} onChange={(e) => setNotes(e.target.value)} rows={3} placeholder="What you checked and why" /></Text>
              {line.claimedBy === null && <Callout.Root color="amber" size="1"><Callout.Text>Your claim on this line lapsed: saving still works unless a teammate has claimed it since.</Callout.Text></Callout.Root>}
            </Flex>
          </Grid>
        )}
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close><Button variant="soft" color="gray">Cancel</Button></Dialog.Close>
          <Button loading={busy} disabled={!line} onClick={() => void submit()}>Save Decision</Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** A duplicate line beside the line that already counts for the same voter. */
export function DuplicatesDialog({ lineId, onClose }: { lineId: Id<"petitionLines"> | null; onClose(): void }) {
  const detail = useQuery(api.petitions.line, lineId ? { id: lineId } : "skip");
  const d = detail?.duplicate;
  return (
    <Dialog.Root open={lineId !== null} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="640px" aria-describedby={undefined}>
        <Dialog.Title>Duplicate Signature</Dialog.Title>
        {!detail ? <Spinner /> : (
          <Grid columns={{ initial: "1", sm: "2" }} gap="3">
            <Box>
              <Heading as="h3" size="2" mb="1">This line</Heading>
              <Text as="div" size="2">{detail.line.name}</Text>
              <Text as="div" size="2" color="gray">{detail.line.address} · page {detail.line.pageNumber}, line {detail.line.signerNumber}</Text>
            </Box>
            <Box>
              <Heading as="h3" size="2" mb="1">Already counted</Heading>
              {d ? (
                <>
                  <Text as="div" size="2">{d.name}</Text>
                  <Text as="div" size="2" color="gray">{d.address} · {detail.petitionName}, page {d.pageNumber}, line {d.signerNumber}</Text>
                  <Text as="div" size="2">Voter: {d.voterName ?? detail.line.voterName}</Text>
                </>
              ) : <Text size="2" color="gray">The earlier line was removed.</Text>}
            </Box>
          </Grid>
        )}
        <Flex justify="end" mt="4"><Dialog.Close><Button variant="soft" color="gray">Close</Button></Dialog.Close></Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
