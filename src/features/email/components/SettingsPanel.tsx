import { Badge, Box, Button, Callout, DropdownMenu, Flex, Grid, Heading, Progress, Text } from "@radix-ui/themes";
import { ChevronDownIcon, ExclamationTriangleIcon } from "@radix-ui/react-icons";
import type * as Y from "yjs";
import { setEmailMeta, type EmailMeta, type MetaKey } from "@convex/lib/email/draft";
import { EMAIL_MAX_BYTES, EMAIL_WARN_BYTES, formatBytes, sizeLevel } from "@convex/lib/email/render";
import { CollabTextField } from "@/ui/CollabText";
import type { Rendered } from "../hooks/useRenderedEmail";

const FIELDS: Array<{
  key: MetaKey;
  label: string;
  required?: boolean;
  type?: string;
  placeholder?: string;
  max: number;
}> = [
  {
    key: "subject",
    label: "Subject",
    required: true,
    placeholder: "e.g. {{voter.first_name}}, early voting starts Monday",
    max: 300,
  },
  { key: "fromName", label: "From name", required: true, placeholder: "e.g. Friends of Jane Smith", max: 120 },
  {
    key: "fromEmail",
    label: "From address",
    required: true,
    type: "email",
    placeholder: "e.g. team@janesmith.org",
    max: 254,
  },
  { key: "replyTo", label: "Reply-to", type: "email", placeholder: "Optional", max: 254 },
  { key: "previewText", label: "Preview text", placeholder: "Shown after the subject in most inboxes", max: 300 },
];

type SettingsPanelProps = {
  doc: Y.Doc;
  meta: EmailMeta;
  rendered: Rendered | null;
  unknown: string[];
  readOnly: boolean;
  onPreview: () => void;
  onTest: () => void;
  onHistory: (() => void) | null;
  onDelete: (() => void) | null;
};

/** Messages and settings: the message's subject and sender, the size meter, variables check, Preview and test. */
export function SettingsPanel({
  doc,
  meta,
  rendered,
  unknown,
  readOnly,
  onPreview,
  onTest,
  onHistory,
  onDelete,
}: SettingsPanelProps) {
  const bytes = rendered?.bytes ?? 0;
  const level = sizeLevel(bytes);
  return (
    <Flex direction="column" gap="3" data-testid="email.settings">
      <Flex justify="between" align="center" wrap="wrap" gap="2">
        <Heading as="h3" size="3">
          Message settings
        </Heading>
        <Flex gap="2" wrap="wrap">
          <DropdownMenu.Root>
            <DropdownMenu.Trigger>
              <Button variant="soft" data-testid="email.previewMenu">
                Preview and test <ChevronDownIcon />
              </Button>
            </DropdownMenu.Trigger>
            <DropdownMenu.Content>
              <DropdownMenu.Item onSelect={onPreview} data-testid="email.preview">
                Preview
              </DropdownMenu.Item>
              <DropdownMenu.Item
                onSelect={onTest}
                disabled={readOnly || level === "over" || unknown.length > 0}
                data-testid="email.test"
              >
                Send test email
              </DropdownMenu.Item>
            </DropdownMenu.Content>
          </DropdownMenu.Root>
          {onHistory && (
            <Button variant="soft" color="gray" onClick={onHistory} data-testid="email.history">
              Version history
            </Button>
          )}
          {onDelete && !readOnly && (
            <Button variant="soft" color="red" onClick={onDelete} data-testid="email.delete">
              Delete message
            </Button>
          )}
        </Flex>
      </Flex>
      <Grid columns={{ initial: "1", sm: "2" }} gap="3">
        {FIELDS.map((f) => (
          <label key={f.key}>
            <Text size="2" weight="medium">
              {f.label}{" "}
              {f.required && (
                <Text color="red" aria-hidden>
                  *
                </Text>
              )}
            </Text>
            <CollabTextField
              type={(f.type ?? "text") as "text" | "email"}
              value={meta[f.key]}
              maxLength={f.max}
              required={f.required}
              placeholder={f.placeholder}
              readOnly={readOnly}
              onChange={(e) => setEmailMeta(doc, f.key, e.target.value)}
              data-testid={`email.meta.${f.key}`}
            />
          </label>
        ))}
      </Grid>
      {unknown.length > 0 && (
        <Callout.Root color="red" data-testid="email.unknownVariables">
          <Callout.Icon>
            <ExclamationTriangleIcon />
          </Callout.Icon>
          <Callout.Text>
            Unknown personalization {unknown.length === 1 ? "variable" : "variables"}:{" "}
            {unknown.map((u) => `{{${u}}}`).join(", ")}. Fix or remove {unknown.length === 1 ? "it" : "them"}: the email
            cannot be sent with {unknown.length === 1 ? "it" : "them"}.
          </Callout.Text>
        </Callout.Root>
      )}
      <Box data-testid="email.size" data-level={level}>
        <Flex justify="between" align="center" gap="2" wrap="wrap">
          <Text size="2">
            Email size: <strong>{rendered ? formatBytes(bytes) : "…"}</strong> of {formatBytes(EMAIL_MAX_BYTES)}
          </Text>
          {level === "warn" && <Badge color="orange">Close to Gmail's clipping limit</Badge>}
          {level === "over" && <Badge color="red">Too large to send</Badge>}
        </Flex>
        <Progress
          value={Math.min(100, (bytes / EMAIL_MAX_BYTES) * 100)}
          color={level === "ok" ? "green" : level === "warn" ? "orange" : "red"}
          aria-label="Email size"
          mt="1"
        />
        {level !== "ok" && (
          <Text size="1" color={level === "over" ? "red" : "orange"}>
            {level === "over"
              ? `Gmail clips emails above ${formatBytes(EMAIL_MAX_BYTES)}: this one cannot be sent until it is smaller.`
              : `Above ${formatBytes(EMAIL_WARN_BYTES)}: Gmail clips emails above ${formatBytes(EMAIL_MAX_BYTES)}.`}
          </Text>
        )}
      </Box>
    </Flex>
  );
}
