import { Button, Callout, Flex, Table, Text } from "@radix-ui/themes";
import { BUILT_IN_TEMPLATES } from "@convex/lib/email/templates";
import { useViewer } from "@/session/ViewerProvider";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { useDevTemplates } from "./hooks/useDevTemplates";

/** /test-email-templates: the developer test page for stored email templates (list, insert, delete), administrators only. */
export function TestEmailTemplatesPage() {
  const { can } = useViewer();
  const allowed = can("settings.manage");
  const { templates, insert, remove } = useDevTemplates(allowed);
  return (
    <>
      <PageHeader
        title="Email template test page"
        description="Developer tool: stored email templates of this organization."
        breadcrumbs={[
          { label: "Dashboard", to: ROUTES.dashboard },
          { label: "Email", to: ROUTES.email },
          { label: "Template test page" },
        ]}
      />
      {!allowed ? (
        <Callout.Root color="red">
          <Callout.Text>This page is for administrators only.</Callout.Text>
        </Callout.Root>
      ) : (
        <Flex direction="column" gap="4">
          <Flex gap="2" wrap="wrap">
            {BUILT_IN_TEMPLATES.map((t) => (
              <Button
                key={t.id}
                variant="soft"
                data-testid="devTemplates.insert"
                onClick={() =>
                  void insert({ builtInId: t.id }).then(
                    () => toast.success("Template inserted", { description: t.name }),
                    (e) => toast.failure("Insert failed", e),
                  )
                }
              >
                Insert “{t.name}”
              </Button>
            ))}
          </Flex>
          {templates === undefined ? (
            <Loading inline size="2" />
          ) : templates.length === 0 ? (
            <Text color="gray" data-testid="devTemplates.empty">
              No stored templates. Insert one above.
            </Text>
          ) : (
            <Table.Root variant="surface" data-testid="devTemplates.table">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Blocks</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>
                    <span className="rt-sr-only">Actions</span>
                  </Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {templates.map((t) => (
                  <Table.Row key={t.id}>
                    <Table.Cell>{t.name}</Table.Cell>
                    <Table.Cell>{new Date(t.createdAt).toLocaleString()}</Table.Cell>
                    <Table.Cell>{(JSON.parse(t.blocks) as unknown[]).length}</Table.Cell>
                    <Table.Cell>
                      <Button
                        size="1"
                        color="red"
                        variant="soft"
                        onClick={() =>
                          void remove({ id: t.id }).then(
                            () => toast.success("Template deleted"),
                            (e) => toast.failure("Delete failed", e),
                          )
                        }
                      >
                        Delete
                      </Button>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
        </Flex>
      )}
    </>
  );
}
