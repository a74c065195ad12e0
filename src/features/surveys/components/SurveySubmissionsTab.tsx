import { DownloadIcon } from "@radix-ui/react-icons";
import { Badge, Button, Card, DataList, Dialog, Flex, Table, Text } from "@radix-ui/themes";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { answerText, type SurveyPage } from "@convex/lib/surveys/rules";
import { csvName, downloadCsv, toCsv } from "@/lib/csv";
import { useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { ScrollTable } from "@/ui/ScrollTable";
import { toast } from "@/ui/toast";
import { useSurveySubmissions } from "../hooks/useSurveySubmissions";
import { summarize } from "../utils/summary";
import { SurveySummary } from "./SurveySummary";

type Row = (typeof api.surveySubmissions.list)["_returnType"]["rows"][number];

/**
 * Submissions: Submitted, Email (or 'Anonymous'; answers recorded at a door marked Canvass), Actions
 * (details, delete); live; how many came from canvassing; CSV export; per-question summary (canvass
 * answers included).
 */
export function SurveySubmissionsTab({
  surveyId,
  surveyName,
  pages,
}: {
  surveyId: Id<"surveys">;
  surveyName: string;
  pages: SurveyPage[];
}) {
  const { can } = useViewer();
  const [limit, setLimit] = useState(50);
  const { data, sample, canvass, removeSubmission, allRows } = useSurveySubmissions(surveyId, limit);
  const [details, setDetails] = useState<Row | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [exporting, setExporting] = useState(false);
  const fields = pages.flatMap((p) => p.fields);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const rows = await allRows();
      const header = ["Submitted", "Email", ...fields.map((f) => f.label)];
      downloadCsv(
        toCsv(
          header,
          rows.map((r) => [
            new Date(r.submittedAt).toISOString(),
            r.email ?? "Anonymous",
            ...fields.map((f) => answerText(f, r.responses[f.id])),
          ]),
        ),
        csvName(surveyName, "survey_submissions.csv"),
      );
    } catch (e) {
      toast.failure("Export failed", e);
    } finally {
      setExporting(false);
    }
  };

  if (!data) return <Text color="gray">Loading submissions…</Text>;
  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Flex direction="column" gap="1">
          <Text size="2" color="gray" data-testid="survey.submissionTotal">
            {data.total} {data.total === 1 ? "submission" : "submissions"}
          </Text>
          {canvass && canvass.canvass > 0 && (
            <Text size="2" color="gray" data-testid="survey.canvassCount">
              {`${canvass.canvass.toLocaleString("en-US")} recorded at the door by canvassers${canvass.sampled ? " (of the latest 2,000)" : ""}`}
            </Text>
          )}
        </Flex>
        <Button
          variant="soft"
          onClick={() => void exportCsv()}
          loading={exporting}
          disabled={data.total === 0}
          data-testid="survey.export"
        >
          <DownloadIcon /> Export CSV
        </Button>
      </Flex>
      {data.rows.length === 0 ? (
        <Card>
          <Text color="gray" data-testid="survey.noSubmissions">
            No submissions yet
          </Text>
        </Card>
      ) : (
        <ScrollTable label="Survey submissions">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Submitted</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Actions</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {data.rows.map((r) => (
              <Table.Row key={r.id} data-testid="survey.submissionRow">
                <Table.Cell>{new Date(r.submittedAt).toLocaleString()}</Table.Cell>
                <Table.Cell>
                  {r.email ?? "Anonymous"}
                  {r.source === "preview" && <Text color="gray"> (preview)</Text>}
                  {r.source === "canvass" && (
                    <Badge color="green" ml="2" data-testid="survey.sourceCanvass">
                      Canvass
                    </Badge>
                  )}
                </Table.Cell>
                <Table.Cell>
                  <Flex gap="2">
                    <Button size="1" variant="soft" onClick={() => setDetails(r)}>
                      Details
                    </Button>
                    {can("surveys.manage") && (
                      <Button size="1" variant="soft" color="red" onClick={() => setDeleting(r)}>
                        Delete
                      </Button>
                    )}
                  </Flex>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </ScrollTable>
      )}
      {data.rows.length < data.total && data.rows.length < 500 && (
        <Flex justify="center">
          <Button variant="soft" onClick={() => setLimit((l) => l + 50)}>
            Load more
          </Button>
        </Flex>
      )}
      {sample && <SurveySummary summary={summarize(pages, sample.responses)} sampled={sample.sampled} />}
      {details && (
        <Dialog.Root open onOpenChange={(o) => !o && setDetails(null)}>
          <Dialog.Content maxWidth="560px">
            <Dialog.Title>Response</Dialog.Title>
            <Dialog.Description size="2" color="gray" mb="3">
              {details.email ?? "Anonymous"} · {new Date(details.submittedAt).toLocaleString()}
              {details.source === "canvass" && " · recorded at the door by a canvasser"}
            </Dialog.Description>
            <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }} data-testid="survey.details">
              {fields
                .filter((f) => details.responses[f.id] !== undefined)
                .map((f) => (
                  <DataList.Item key={f.id}>
                    <DataList.Label>{f.label}</DataList.Label>
                    <DataList.Value style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
                      {answerText(f, details.responses[f.id])}
                    </DataList.Value>
                  </DataList.Item>
                ))}
            </DataList.Root>
            <Flex justify="end" mt="4">
              <Dialog.Close>
                <Button variant="soft" color="gray">
                  Close
                </Button>
              </Dialog.Close>
            </Flex>
          </Dialog.Content>
        </Dialog.Root>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete submission"
        description="Are you sure you want to delete this submission?"
        onConfirm={() => {
          if (deleting)
            void removeSubmission({ id: deleting.id }).then(
              () => toast.info("Submission deleted"),
              (e: unknown) => toast.failure("Error deleting submission", e),
            );
          setDeleting(null);
        }}
      />
    </Flex>
  );
}
