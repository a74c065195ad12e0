import { PlusIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Card, Flex, Select, Tabs, Text } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { useViewer } from "@/session/ViewerProvider";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import { CreatePetitionDialog } from "./components/CreatePetitionDialog";
import { AdjudicateDialog, DuplicatesDialog } from "./components/LineDialogs";
import { PagesTab } from "./components/PagesTab";
import { ProgressCard } from "./components/ProgressCard";
import { ResultsTab } from "./components/ResultsTab";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";
import { usePetitionList } from "./hooks/usePetitionList";

/**
 * /signature-verification (spec/3 §2.8): petitions, their pages and signer lines, each line
 * checked against the voter file; the results, a shared review queue and the projected valid
 * count, live for the whole team.
 */
export function SignatureVerificationPage() {
  const { can, me } = useViewer();
  const { petitions, claimNext } = usePetitionList(can("voters.view"));
  const [chosen, setChosen] = useState<Id<"petitions"> | null>(null);
  const [creating, setCreating] = useState(false);
  const [adjudicating, setAdjudicating] = useState<Id<"petitionLines"> | null>(null);
  const [duplicates, setDuplicates] = useState<Id<"petitionLines"> | null>(null);
  const [tab, setTab] = useState("pages");
  const petition = petitions?.find((p) => p.id === chosen) ?? petitions?.[0] ?? null;
  const canEnter = can("voters.update");

  const reviewNext = async () => {
    if (!petition) return;
    try {
      const id = await claimNext({ petitionId: petition.id });
      if (id) setAdjudicating(id);
      else toast.info("Queue empty", { description: "No line is waiting for a reviewer." });
    } catch (e) {
      toast.failure("Could not claim a line", e);
    }
  };

  if (me === undefined) return <Loading />;
  return (
    <Box>
      <PageHeader
        title="Signature Verification"
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Signature Verification" }]}
        actions={
          can("voters.manage") && (
            <Button onClick={() => setCreating(true)}>
              <PlusIcon /> New Petition
            </Button>
          )
        }
      />
      <Callout.Root mb="4" color="gray">
        <Callout.Text>
          Precinct checks each signer line against your organization's voter registration records: is the signer a
          registered voter eligible to sign in the petition's jurisdiction, registered before signing, signing once. It
          is an eligibility match, not a handwriting comparison. Lines it cannot decide with confidence go to the review
          queue.
        </Callout.Text>
      </Callout.Root>
      {!can("voters.view") ? (
        <NoPermission />
      ) : petitions === undefined ? (
        <Loading />
      ) : !petition ? (
        <Card>
          <Text size="2">No petitions yet.{can("voters.manage") ? " Create one with New Petition." : ""}</Text>
        </Card>
      ) : (
        <Flex direction="column" gap="4">
          <Flex gap="2" align="center" wrap="wrap">
            <Text size="2" weight="medium" id="petition-select">
              Petition
            </Text>
            <Select.Root value={petition.id} onValueChange={(v) => setChosen(v as Id<"petitions">)}>
              <Select.Trigger aria-labelledby="petition-select" />
              <Select.Content>
                {petitions.map((p) => (
                  <Select.Item key={p.id} value={p.id}>
                    {p.name}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
            {petition.deadline && (
              <Text size="2" color="gray">
                Deadline {petition.deadline}
              </Text>
            )}
            {(petition.jurisdiction.state || petition.jurisdiction.county) && (
              <Text size="2" color="gray">
                · {[petition.jurisdiction.county, petition.jurisdiction.state].filter(Boolean).join(", ")}
              </Text>
            )}
          </Flex>
          {petition.countyNotice && (
            <Callout.Root color="amber" data-testid="petition.countyNotice">
              <Callout.Text>{petition.countyNotice}</Callout.Text>
            </Callout.Root>
          )}
          <ProgressCard petition={petition} />
          <Tabs.Root value={tab} onValueChange={setTab}>
            <Tabs.List>
              <Tabs.Trigger value="pages">Pages &amp; Entry</Tabs.Trigger>
              <Tabs.Trigger value="results">Results</Tabs.Trigger>
              <Tabs.Trigger value="review">
                Review Queue ({(petition.counts.review + petition.counts.failed).toLocaleString("en-US")})
              </Tabs.Trigger>
            </Tabs.List>
            <Box mt="3">
              <Tabs.Content value="pages">
                <PagesTab key={petition.id} petitionId={petition.id} canEnter={canEnter} />
              </Tabs.Content>
              <Tabs.Content value="results">
                <ResultsTab
                  key={petition.id}
                  petitionId={petition.id}
                  petitionName={petition.name}
                  canEnter={canEnter}
                  onAdjudicate={setAdjudicating}
                  onDuplicates={setDuplicates}
                />
              </Tabs.Content>
              <Tabs.Content value="review">
                <Card>
                  <Text as="p" size="2" mb="3">
                    {petition.counts.review.toLocaleString("en-US")} lines need a reviewer and{" "}
                    {petition.counts.failed.toLocaleString("en-US")} failed lines can be cured or overruled. Each line
                    goes to one reviewer at a time; a line is freed when its reviewer closes it or leaves.
                  </Text>
                  {canEnter && (
                    <Button
                      onClick={() => void reviewNext()}
                      disabled={petition.counts.review + petition.counts.failed === 0}
                    >
                      Review next line
                    </Button>
                  )}
                </Card>
              </Tabs.Content>
            </Box>
          </Tabs.Root>
        </Flex>
      )}
      <CreatePetitionDialog open={creating} onOpenChange={setCreating} onCreated={setChosen} />
      {adjudicating && (
        <AdjudicateDialog key={adjudicating} lineId={adjudicating} onClose={() => setAdjudicating(null)} />
      )}
      <DuplicatesDialog lineId={duplicates} onClose={() => setDuplicates(null)} />
    </Box>
  );
}
