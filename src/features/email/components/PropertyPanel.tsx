import { CopyIcon, TrashIcon } from "@radix-ui/react-icons";
import { Box, Button, Flex, Heading, Separator, Text } from "@radix-ui/themes";
import { Fragment, type ReactNode } from "react";
import {
  BLOCK_LABELS,
  BLOCK_PROPS,
  columnCount,
  type BlockType,
  type BlockValue,
  type EmailBlock,
} from "@convex/lib/email/blocks";
import { PropertyField } from "./PropertyField";

type PropertyPanelProps = {
  /** The selected block, or null when nothing is selected. */
  block: { id: string; type: BlockType; content: Record<string, unknown> } | null;
  /** One edited property at a time: `{ [key]: value }`, already within its bounds. */
  onChange: (patch: Record<string, BlockValue>) => void;
  onDelete: () => void;
  onDuplicate: () => void;
  /** Uploads an image for `field` (image.src, hero.backgroundImage); its address, or null when it failed (and was reported). */
  onUploadImage: (file: File, field: string) => Promise<string | null>;
  disabled?: boolean;
  /** Shown under the heading, e.g. a teammate's concurrent edit of this block. */
  conflictNote?: ReactNode;
  /** Shown at the top, e.g. that a teammate deleted the block this user was editing. */
  notice?: ReactNode;
};

/** Properties grouped under headings; any property of the block not listed here follows in a last group. */
const GROUPS: Partial<Record<BlockType, { title: string; keys: string[] }[]>> = {
  footer: [
    { title: "Company", keys: ["companyName", "copyrightYear", "address"] },
    {
      title: "Links",
      keys: [
        "showUnsubscribe",
        "unsubscribeText",
        "showPrivacy",
        "privacyText",
        "privacyUrl",
        "showContact",
        "contactText",
        "contactUrl",
      ],
    },
    { title: "Style", keys: ["backgroundColor", "textColor", "linkColor", "padding"] },
  ],
};

/** Properties offering an image upload beside their address (spec/2 §2.3: image and hero blocks). */
const UPLOADS: Partial<Record<BlockType, string>> = { image: "src", hero: "backgroundImage" };

export const NO_SELECTION_HINT = "Select a component on the canvas to edit its properties.";

function groupsOf(type: BlockType): { title: string | null; keys: string[] }[] {
  const all = Object.keys(BLOCK_PROPS[type]);
  const groups = GROUPS[type] ?? [];
  const listed = new Set(groups.flatMap((g) => g.keys));
  const rest = all.filter((k) => !listed.has(k));
  const out: { title: string | null; keys: string[] }[] = groups.map((g) => ({
    title: g.title,
    keys: g.keys.filter((k) => k in BLOCK_PROPS[type]),
  }));
  if (rest.length > 0) out.push({ title: groups.length > 0 ? "Other" : null, keys: rest });
  return out;
}

/**
 * The property panel of the email builder (spec/2 §2.3, §5): the selected block's label, Duplicate
 * and Delete, and one labelled control per property of its type (BLOCK_PROPS). It fills the width
 * its container gives it (300 px beside the canvas, the whole screen on a phone).
 */
export function PropertyPanel({
  block,
  onChange,
  onDelete,
  onDuplicate,
  onUploadImage,
  disabled,
  conflictNote,
  notice,
}: PropertyPanelProps) {
  if (block === null) {
    return (
      <Box data-testid="email.props" p="3" width="100%">
        {notice && <Box mb="3">{notice}</Box>}
        <Text as="p" size="2" color="gray">
          {NO_SELECTION_HINT}
        </Text>
      </Box>
    );
  }

  const specs = BLOCK_PROPS[block.type];
  const label = BLOCK_LABELS[block.type];
  const headingId = `email-props-${block.id}`;
  const hasText = Object.values(specs).some((s) => s.kind === "text");
  // for 3–4 columns the widths are equal anyway; the distribution only applies to two
  const shown = (key: string) =>
    key !== "distribution" ||
    (block.type === "columns" &&
      columnCount({ type: block.type, content: block.content as EmailBlock["content"] }) === 2);
  const upload = UPLOADS[block.type];

  return (
    <Box asChild p="3" width="100%" style={{ minWidth: 0, boxSizing: "border-box" }}>
      <section aria-labelledby={headingId} data-testid="email.props">
        {notice && <Box mb="3">{notice}</Box>}
        <Flex align="center" justify="between" gap="2" wrap="wrap">
          <Heading as="h2" size="3" id={headingId}>
            {label}
          </Heading>
          <Flex gap="2">
            <Button
              type="button"
              size="1"
              variant="soft"
              onClick={onDuplicate}
              disabled={disabled}
              aria-label={`Duplicate ${label}`}
              data-testid="email.props.duplicate"
            >
              <CopyIcon /> Duplicate
            </Button>
            <Button
              type="button"
              size="1"
              variant="soft"
              color="red"
              onClick={onDelete}
              disabled={disabled}
              aria-label={`Delete ${label}`}
              data-testid="email.props.delete"
            >
              <TrashIcon /> Delete
            </Button>
          </Flex>
        </Flex>
        {conflictNote && <Box mt="2">{conflictNote}</Box>}
        {hasText && (
          <Text as="p" size="1" color="gray" mt="2">
            Text may include personalization variables like <code>{"{{voter.first_name}}"}</code>.
          </Text>
        )}
        {groupsOf(block.type).map((group, i) => (
          <Fragment key={group.title ?? i}>
            {group.title && (
              <>
                <Separator size="4" mt="4" />
                <Heading as="h3" size="2" mt="3" color="gray">
                  {group.title}
                </Heading>
              </>
            )}
            <Flex direction="column" gap="3" mt="3">
              {group.keys.filter(shown).map((key) => (
                <PropertyField
                  key={`${block.id}:${key}`}
                  name={key}
                  spec={specs[key]}
                  value={block.content[key]}
                  onChange={(value) => onChange({ [key]: value })}
                  onUploadImage={key === upload ? (file) => onUploadImage(file, key) : undefined}
                  disabled={disabled}
                />
              ))}
            </Flex>
          </Fragment>
        ))}
      </section>
    </Box>
  );
}
