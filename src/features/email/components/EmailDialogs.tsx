/** The builder's dialogs: Preview (desktop and mobile), Send test email, Version history, Save as template. */
import {
  Badge,
  Box,
  Button,
  Dialog,
  Flex,
  SegmentedControl,
  Table,
  Tabs,
  Text,
  TextArea,
  TextField,
} from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { parseRecipients } from "@convex/lib/email/addresses";
import { substitute } from "@convex/lib/email/merge";
import type { Rendered } from "../hooks/useRenderedEmail";
import { PREVIEW_VALUES_NOTE, usePreviewValues } from "../hooks/usePreviewValues";
import { Loading } from "@/ui/Loading";
import { useCampaignVersions } from "../hooks/useCampaignVersions";

export function PreviewDialog({
  open,
  onOpenChange,
  rendered,
  subject,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  rendered: Rendered | null;
  subject: string;
}) {
  const [width, setWidth] = useState<"desktop" | "mobile">("desktop");
  const values = usePreviewValues();
  const html = rendered ? substitute(rendered.html, values, "html") : "";
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="760px" data-testid="email.previewDialog">
        <Dialog.Title>Preview</Dialog.Title>
        <Dialog.Description size="2" color="gray">
          {substitute(subject, values, "text") || "No subject"} — {PREVIEW_VALUES_NOTE}.
        </Dialog.Description>
        <Tabs.Root defaultValue="html" mt="3">
          <Tabs.List>
            <Tabs.Trigger value="html">Email</Tabs.Trigger>
            <Tabs.Trigger value="text">Plain text</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="html">
            <Flex justify="center" my="3">
              <SegmentedControl.Root
                value={width}
                onValueChange={(v) => setWidth(v as typeof width)}
                aria-label="Preview width"
              >
                <SegmentedControl.Item value="desktop">Desktop</SegmentedControl.Item>
                <SegmentedControl.Item value="mobile">Mobile</SegmentedControl.Item>
              </SegmentedControl.Root>
            </Flex>
            {rendered === null ? (
              <Loading size="2" />
            ) : (
              <Flex justify="center" style={{ background: "var(--gray-3)", padding: 8 }}>
                {/* sandboxed: no script runs, the document cannot reach the app */}
                <iframe
                  title="Email preview"
                  sandbox=""
                  srcDoc={html}
                  data-testid="email.previewFrame"
                  style={{
                    width: width === "desktop" ? 680 : 375,
                    maxWidth: "100%",
                    height: 560,
                    border: 0,
                    background: "white",
                  }}
                />
              </Flex>
            )}
          </Tabs.Content>
          <Tabs.Content value="text">
            <Box mt="3" p="3" style={{ background: "var(--gray-2)", maxHeight: 560, overflow: "auto" }}>
              <pre style={{ whiteSpace: "pre-wrap", margin: 0, fontSize: 13 }} data-testid="email.previewText">
                {rendered ? substitute(rendered.text, values, "text") : ""}
              </pre>
            </Box>
          </Tabs.Content>
        </Tabs.Root>
        <Flex justify="end" mt="3">
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

export function TestEmailDialog({
  open,
  onOpenChange,
  onSend,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onSend: (recipients: string) => Promise<boolean>;
}) {
  const [recipients, setRecipients] = useState("");
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const send = async () => {
    const { valid, invalid } = parseRecipients(recipients);
    if (valid.length === 0 && invalid.length === 0)
      return setProblem("Recipients required: enter at least one email address.");
    if (invalid.length) return setProblem(`Invalid email address: ${invalid.join(", ")}`);
    setProblem(null);
    setSending(true);
    const ok = await onSend(recipients);
    setSending(false);
    if (ok) onOpenChange(false);
  };
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="480px" data-testid="email.testDialog">
        <Dialog.Title>Send test email</Dialog.Title>
        <Dialog.Description size="2" color="gray">
          The subject is prefixed [TEST] and personalised with sample values. Separate addresses with commas or new
          lines.
        </Dialog.Description>
        <label>
          <Text size="2" weight="medium">
            Recipients
          </Text>
          <TextArea
            value={recipients}
            onChange={(e) => setRecipients(e.target.value)}
            placeholder="you@example.org, teammate@example.org"
            rows={3}
            data-testid="email.testRecipients"
          />
        </label>
        {problem && (
          <Text as="p" size="2" color="red" mt="2" role="alert">
            {problem}
          </Text>
        )}
        <Flex justify="end" gap="2" mt="4">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button onClick={() => void send()} loading={sending} data-testid="email.testSend">
            Send test
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}

export function VersionHistoryDialog({
  open,
  onOpenChange,
  campaignId,
  current,
  onRestore,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  campaignId: Id<"emailCampaigns">;
  current: number;
  onRestore: (version: number) => Promise<void>;
}) {
  const { versions } = useCampaignVersions(campaignId, open);
  const [busy, setBusy] = useState<number | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="620px" data-testid="email.historyDialog">
        <Dialog.Title>Version history</Dialog.Title>
        <Dialog.Description size="2" color="gray">
          Every save keeps a version. Restoring puts it in the editor for everyone editing; Save to publish it as a new
          version.
        </Dialog.Description>
        {versions === undefined ? (
          <Loading size="2" />
        ) : (
          <Box style={{ overflowX: "auto" }} mt="3">
            <Table.Root size="1">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell>Version</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Saved</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>By</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>
                    <span className="rt-sr-only">Restore</span>
                  </Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {versions.map((v) => (
                  <Table.Row key={v.version} data-testid="email.version">
                    <Table.Cell>
                      {v.version} {v.version === current && <Badge size="1">current</Badge>}
                    </Table.Cell>
                    <Table.Cell>{new Date(v.savedAt).toLocaleString()}</Table.Cell>
                    <Table.Cell>{v.savedByName}</Table.Cell>
                    <Table.Cell>
                      <Button
                        size="1"
                        variant="soft"
                        loading={busy === v.version}
                        onClick={() => {
                          setBusy(v.version);
                          void onRestore(v.version).finally(() => setBusy(null));
                        }}
                        data-testid="email.version.restore"
                      >
                        Restore
                      </Button>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        )}
        <Flex justify="end" mt="3">
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

export function SaveTemplateDialog({
  open,
  onOpenChange,
  onSave,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onSave: (name: string) => Promise<boolean>;
}) {
  const [name, setName] = useState("");
  const [saving, setSaving] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="420px" data-testid="email.saveTemplateDialog">
        <Dialog.Title>Save as template</Dialog.Title>
        <Dialog.Description size="2" color="gray">
          The current design becomes a custom template for your organization.
        </Dialog.Description>
        <label>
          <Text size="2" weight="medium">
            Template name
          </Text>
          <TextField.Root
            value={name}
            maxLength={120}
            onChange={(e) => setName(e.target.value)}
            data-testid="email.templateName"
          />
        </label>
        <Flex justify="end" gap="2" mt="4">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button
            disabled={!name.trim()}
            loading={saving}
            onClick={() => {
              setSaving(true);
              void onSave(name).then((ok) => {
                setSaving(false);
                if (ok) {
                  setName("");
                  onOpenChange(false);
                }
              });
            }}
            data-testid="email.templateSave"
          >
            Save template
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
