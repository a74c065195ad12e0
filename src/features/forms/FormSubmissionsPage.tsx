import { DownloadIcon } from "@radix-ui/react-icons";
import {
  Badge,
  Box,
  Button,
  Card,
  Dialog,
  DataList,
  Flex,
  Grid,
  Select,
  Table,
  Text,
  TextField,
} from "@radix-ui/themes";
import { useState } from "react";
import { Link } from "react-router-dom";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { displayValue } from "@convex/lib/forms/rules";
import { useDebounced } from "@/lib/useDebounced";
import { useViewer } from "@/session/ViewerProvider";
import { PageHeader } from "@/ui/PageHeader";
import { ScrollTable } from "@/ui/ScrollTable";
import { useForms } from "./hooks/useForms";
import { useSubmissionExport, type SubmissionFilters } from "./hooks/useSubmissionExport";
import { useSubmissions } from "./hooks/useSubmissions";
import { ROUTES, voterPath } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";

const PAGE = 50;
type Row = (typeof api.formSubmissions.list)["_returnType"]["rows"][number];

/** A date input's value (local day) as ms: the start of that day, or of the next one for an end date. */
function dayStart(value: string, next = false): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const [y, m, d] = value.split("-").map(Number);
  return new Date(y, m - 1, d + (next ? 1 : 0)).getTime();
}

/** /form-submissions: filters, newest first, details, Export CSV; live as submissions arrive. */
export function FormSubmissionsPage() {
  const { can } = useViewer();
  const { data: formsData } = useForms();
  const forms = formsData?.forms ?? [];
  const [formId, setFormId] = useState<string>("all");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [email, setEmail] = useState("");
  const debouncedEmail = useDebounced(email, 300);
  const [limit, setLimit] = useState(PAGE);
  const [details, setDetails] = useState<Row | null>(null);
  const filters: SubmissionFilters = {
    formId: formId === "all" ? null : (formId as Id<"forms">),
    from: dayStart(from),
    to: dayStart(to, true),
    email: debouncedEmail,
  };
  const { result } = useSubmissions(filters, limit, can("forms.view"));
  const exporter = useSubmissionExport(forms);
  const fieldsOf = (id: string) => forms.find((f) => f.id === id)?.fields ?? [];

  return (
    <Box>
      <PageHeader
        title="Form Submissions"
        breadcrumbs={[
          { label: "Dashboard", to: ROUTES.dashboard },
          { label: "Forms", to: ROUTES.formBuilder },
          { label: "Form Submissions" },
        ]}
        actions={
          <Button
            onClick={() => void exporter.run(filters)}
            loading={exporter.exporting}
            disabled={!result}
            data-testid="submissions.export"
          >
            <DownloadIcon /> Export CSV
          </Button>
        }
      />
      {!can("forms.view") ? (
        <NoPermission />
      ) : (
        <Flex direction="column" gap="4">
          <Card>
            <Grid columns={{ initial: "1", sm: "2", md: "4" }} gap="3">
              <label>
                <Text size="2" weight="medium">
                  Form
                </Text>
                <Select.Root
                  value={formId}
                  onValueChange={(v) => {
                    setFormId(v);
                    setLimit(PAGE);
                  }}
                >
                  <Select.Trigger style={{ width: "100%" }} aria-label="Form" data-testid="submissions.form" />
                  <Select.Content>
                    <Select.Item value="all">All forms</Select.Item>
                    {forms.map((f) => (
                      <Select.Item key={f.id} value={f.id}>
                        {f.name}
                      </Select.Item>
                    ))}
                  </Select.Content>
                </Select.Root>
              </label>
              <label>
                <Text size="2" weight="medium">
                  From
                </Text>
                <TextField.Root
                  type="date"
                  value={from}
                  onChange={(e) => setFrom(e.target.value)}
                  data-testid="submissions.from"
                />
              </label>
              <label>
                <Text size="2" weight="medium">
                  To
                </Text>
                <TextField.Root
                  type="date"
                  value={to}
                  onChange={(e) => setTo(e.target.value)}
                  data-testid="submissions.to"
                />
              </label>
              <label>
                <Text size="2" weight="medium">
                  Submitter email
                </Text>
                <TextField.Root
                  value={email}
                  placeholder="contains…"
                  onChange={(e) => setEmail(e.target.value)}
                  data-testid="submissions.email"
                />
              </label>
            </Grid>
          </Card>
          {result === undefined ? (
            <Loading />
          ) : result.rows.length === 0 ? (
            <Card>
              <Text color="gray" data-testid="submissions.empty">
                No submissions match these filters.
              </Text>
            </Card>
          ) : (
            <ScrollTable label="Form submissions">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell>Submitted</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Form</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Submitter email</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Voter</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>
                    <span className="rt-sr-only">Actions</span>
                  </Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {result.rows.map((r) => (
                  <Table.Row key={r.id} data-testid="submissions.row">
                    <Table.Cell>{new Date(r.createdAt).toLocaleString()}</Table.Cell>
                    <Table.Cell>{r.formName}</Table.Cell>
                    <Table.Cell>{r.submitterEmail ?? <Text color="gray">—</Text>}</Table.Cell>
                    <Table.Cell>
                      {r.voterId ? <Link to={voterPath(r.voterId)}>Matched voter</Link> : <Text color="gray">—</Text>}
                    </Table.Cell>
                    <Table.Cell>
                      <Button size="1" variant="soft" onClick={() => setDetails(r)}>
                        Details
                      </Button>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </ScrollTable>
          )}
          {result?.nextBefore !== null && result !== undefined && (
            <Flex justify="center">
              <Button variant="soft" onClick={() => setLimit((l) => Math.min(500, l + PAGE))} disabled={limit >= 500}>
                Load more
              </Button>
            </Flex>
          )}
        </Flex>
      )}
      {details && (
        <Dialog.Root open onOpenChange={(o) => !o && setDetails(null)}>
          <Dialog.Content maxWidth="560px">
            <Dialog.Title>Submission details</Dialog.Title>
            <Dialog.Description size="2" color="gray" mb="3">
              {details.formName} · {new Date(details.createdAt).toLocaleString()}{" "}
              <Badge color={details.source === "public" ? "blue" : "gray"}>
                {details.source === "public" ? "Public form" : "Submitted in the app"}
              </Badge>
            </Dialog.Description>
            <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }} data-testid="submissions.details">
              <DataList.Item>
                <DataList.Label>Submitter email</DataList.Label>
                <DataList.Value>{details.submitterEmail ?? "—"}</DataList.Value>
              </DataList.Item>
              <DataList.Item>
                <DataList.Label>Submitter IP</DataList.Label>
                <DataList.Value>{details.submitterIp ?? "—"}</DataList.Value>
              </DataList.Item>
              {fieldsOf(details.formId)
                .filter((f) => f.type !== "separator")
                .map((f) => (
                  <DataList.Item key={f.id}>
                    <DataList.Label>{f.label}</DataList.Label>
                    <DataList.Value style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
                      {displayValue(f, details.data[f.id]) || "—"}
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
    </Box>
  );
}
