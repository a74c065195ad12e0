import { Badge, Button, Callout, Card, Code, Flex, Heading, Select, Table, Text, TextField } from "@radix-ui/themes";
import type { FunctionReturnType } from "convex/server";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import { useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import { ScrollTable } from "@/ui/ScrollTable";
import { ROUTES } from "@/lib/routes";
import { useImportDebug } from "./hooks/useImportDebug";

type DebugResult = FunctionReturnType<typeof api.imports.debugImport>;
type PermResult = FunctionReturnType<typeof api.imports.checkPermissions>;

/**
 * /voters/debug-import: for an import id, what deleting it would remove, the caller's permissions as
 * the server sees them, and Force Delete. Ids are document ids (the seed's numeric "default 8" has no
 * meaning here), so the field starts empty and recent imports can be picked from a list.
 */
export function DebugImportPage() {
  const { can } = useViewer();
  const { recent, remove, debugImport, checkPermissions } = useImportDebug(can("voters.view"));
  const [importId, setImportId] = useState("");
  const [result, setResult] = useState<DebugResult | null>(null);
  const [perms, setPerms] = useState<PermResult | null>(null);
  const [confirm, setConfirm] = useState(false);

  const handleDebug = async () => {
    try {
      setResult(await debugImport(importId));
    } catch (e) {
      toast.failure("Error searching for voters", e);
    }
  };
  const handleCheck = async () => {
    try {
      setPerms(await checkPermissions());
    } catch (e) {
      toast.failure("Not authenticated", e);
    }
  };
  const handleForce = async () => {
    try {
      if (!result?.found) return;
      const r = await remove({ importId: result.import._id, force: true });
      toast.success(r.status === "deleted" ? "Import deleted" : "Deleting imported records…");
      await handleDebug();
    } catch (e) {
      toast.failure("Could not delete voters", e);
    }
  };

  return (
    <>
      <PageHeader
        title="Debug Import Deletion"
        breadcrumbs={[
          { label: "Dashboard", to: ROUTES.dashboard },
          { label: "Import History", to: ROUTES.importHistory },
        ]}
      />
      <Flex direction="column" gap="4">
        <Card>
          <Flex gap="2" align="end" wrap="wrap">
            <Flex direction="column" gap="1" style={{ flex: 1, minWidth: 260 }}>
              <Text as="label" size="2" weight="medium" htmlFor="debug-import-id">
                Import ID
              </Text>
              <TextField.Root
                id="debug-import-id"
                placeholder="Import document id"
                value={importId}
                onChange={(e) => setImportId(e.target.value)}
              />
            </Flex>
            {recent && recent.length > 0 && (
              <Select.Root onValueChange={setImportId}>
                <Select.Trigger placeholder="Recent imports…" aria-label="Recent imports" />
                <Select.Content>
                  {recent.map((r) => (
                    <Select.Item
                      key={r._id}
                      value={r._id}
                    >{`${r.filename} · ${new Date(r.import_date).toLocaleString()} · ${r.status}`}</Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            )}
            <Button onClick={() => void handleDebug()} disabled={!importId.trim()}>
              Debug Import
            </Button>
            <Button color="red" onClick={() => setConfirm(true)} disabled={!result?.found || !can("voters.manage")}>
              Force Delete
            </Button>
            <Button variant="soft" onClick={() => void handleCheck()}>
              Check Permissions
            </Button>
          </Flex>
        </Card>

        {perms && (
          <Card data-testid="debugImport.permissions">
            <Heading size="3" mb="2">
              Permissions
            </Heading>
            <Flex gap="3" wrap="wrap">
              <Check label="Authenticated" ok={perms.authenticated} />
              <Check label="Can read voters" ok={perms.canRead} />
              <Check label="Can delete voters" ok={perms.canDelete} />
              {perms.organization && (
                <Text size="2" color="gray">
                  Organization: {perms.organization}
                </Text>
              )}
            </Flex>
            {!perms.authenticated && (
              <Text as="p" color="red" size="2" mt="2">
                Not authenticated
              </Text>
            )}
            {perms.authenticated && !perms.canRead && (
              <Text as="p" color="red" size="2" mt="2">
                Cannot read voters table
              </Text>
            )}
            {perms.authenticated && !perms.canDelete && (
              <Text as="p" color="red" size="2" mt="2">
                DELETE permission denied by Row Level Security
              </Text>
            )}
          </Card>
        )}

        {result && !result.found && (
          <Callout.Root color="red">
            <Callout.Text>{result.message}</Callout.Text>
          </Callout.Root>
        )}
        {result && result.found && (
          <Card data-testid="debugImport.result">
            <Heading size="3" mb="2">
              {result.import.filename}
            </Heading>
            <Text as="p" size="2">
              Status <Code>{result.import.status}</Code> · imported {result.import.imported_records.toLocaleString()} ·
              duplicates {result.import.duplicate_records.toLocaleString()} · failed{" "}
              {result.import.failed_records.toLocaleString()}
            </Text>
            <Text as="p" size="3" weight="bold" my="2">
              Would delete:{" "}
              {result.votersToDelete !== null
                ? result.votersToDelete.toLocaleString()
                : `more than ${(result.votersToDeleteAtLeast - 1).toLocaleString()} (${result.import.imported_records.toLocaleString()} tracked)`}{" "}
              voter records
            </Text>
            {result.votersToDelete === 0 && (
              <Text as="p" color="orange" size="2">
                No voter records found for this import
              </Text>
            )}
            {result.onlyMarked && (
              <Text as="p" color="gray" size="2">
                No records were imported (duplicates only): a normal delete only marks it deleted.
              </Text>
            )}
            {result.running && (
              <Text as="p" color="orange" size="2">
                This import is still running: only Force Delete removes it now.
              </Text>
            )}
            {result.sample.length > 0 && (
              <ScrollTable label={result.import.filename} size="1" mt="2">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeaderCell>First Name</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Last Name</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {result.sample.map((s) => (
                    <Table.Row key={s.id}>
                      <Table.Cell>{s.first_name}</Table.Cell>
                      <Table.Cell>{s.last_name}</Table.Cell>
                      <Table.Cell>{s.email}</Table.Cell>
                      <Table.Cell>{new Date(s.createdAt).toLocaleString()}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </ScrollTable>
            )}
          </Card>
        )}
      </Flex>
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title="Force Delete"
        description="Deletes every voter this import created (tracked by import id) and marks the import deleted, even if it is running or found only duplicates."
        confirmLabel="Force Delete"
        onConfirm={() => void handleForce()}
      />
    </>
  );
}

function Check({ label, ok }: { label: string; ok: boolean }) {
  return (
    <Badge color={ok ? "green" : "red"}>
      {ok ? "✓" : "✗"} {label}
    </Badge>
  );
}
