import { MagnifyingGlassIcon, TrashIcon } from "@radix-ui/react-icons";
import { Badge, Button, Flex, Heading, IconButton, ScrollArea, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { BUILT_IN_TEMPLATES } from "@convex/lib/email/templates";
import type { EmailBlock } from "@convex/lib/email/blocks";
import type { StoredTemplate } from "../hooks/useEmailCampaigns";

export type PickedTemplate = { id: string; name: string; blocks: EmailBlock[] };

type TemplatePickerProps = {
  stored: StoredTemplate[] | undefined;
  canManage: boolean;
  onLoad: (t: PickedTemplate) => void;
  onDelete: (id: Id<"emailTemplates">, name: string) => void;
  onSaveAs: () => void;
};

/** Templates with search: the five built-ins (category default) and the organisation's own (custom). */
export function TemplatePicker({ stored, canManage, onLoad, onDelete, onSaveAs }: TemplatePickerProps) {
  const [search, setSearch] = useState("");
  const term = search.trim().toLowerCase();
  const rows = [
    ...BUILT_IN_TEMPLATES.map((t) => ({
      id: t.id,
      name: t.name,
      category: "default" as const,
      blocks: () => t.blocks,
    })),
    ...(stored ?? []).map((t) => ({
      id: t.id,
      name: t.name,
      category: "custom" as const,
      blocks: () => JSON.parse(t.blocks) as EmailBlock[],
    })),
  ].filter((t) => !term || t.name.toLowerCase().includes(term));
  return (
    <Flex direction="column" gap="2" data-testid="email.templates">
      <Flex justify="between" align="center">
        <Heading as="h3" size="2">
          Templates
        </Heading>
        {canManage && (
          <Button size="1" variant="ghost" onClick={onSaveAs} data-testid="email.saveTemplate">
            Save as template
          </Button>
        )}
      </Flex>
      <TextField.Root
        size="1"
        placeholder="Search templates"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        aria-label="Search templates"
        data-testid="email.templates.search"
      >
        <TextField.Slot>
          <MagnifyingGlassIcon />
        </TextField.Slot>
      </TextField.Root>
      <ScrollArea type="auto" style={{ maxHeight: 200 }}>
        <Flex direction="column" gap="1" pr="2">
          {rows.length === 0 && (
            <Text size="1" color="gray">
              No templates match.
            </Text>
          )}
          {rows.map((t) => (
            <Flex key={t.id} align="center" gap="1">
              <Button
                size="1"
                variant="ghost"
                color="gray"
                style={{ flex: 1, justifyContent: "space-between" }}
                disabled={!canManage}
                onClick={() => onLoad({ id: t.id, name: t.name, blocks: t.blocks() })}
                data-testid="email.template"
              >
                <Text truncate>{t.name}</Text>
                <Badge size="1" color={t.category === "default" ? "gray" : "blue"}>
                  {t.category}
                </Badge>
              </Button>
              {t.category === "custom" && canManage && (
                <IconButton
                  size="1"
                  variant="ghost"
                  color="red"
                  aria-label={`Delete template ${t.name}`}
                  onClick={() => onDelete(t.id, t.name)}
                  data-testid="email.template.delete"
                >
                  <TrashIcon />
                </IconButton>
              )}
            </Flex>
          ))}
        </Flex>
      </ScrollArea>
    </Flex>
  );
}
