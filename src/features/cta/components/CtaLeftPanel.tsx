import { CircleIcon, ImageIcon, Pencil1Icon, SquareIcon, TextIcon, TrashIcon } from "@radix-ui/react-icons";
import {
  Badge,
  Box,
  Button,
  Flex,
  Grid,
  Heading,
  IconButton,
  ScrollArea,
  Text,
  TextField,
  Tooltip,
} from "@radix-ui/themes";
import { useState, type ReactNode } from "react";
import { BRAND_COLORS, type ElementType } from "@convex/lib/cta/design";
import { BUILT_IN_CTA_TEMPLATES } from "@convex/lib/cta/templates";
import type { CtaTemplateRow } from "../hooks/useCtas";

export type PickedCtaTemplate = { id: string; name: string; category: string; design: string | null; builtIn: boolean };

type Props = {
  custom: CtaTemplateRow[] | undefined;
  superAdmin: boolean;
  readOnly: boolean;
  onTemplate: (t: PickedCtaTemplate) => void;
  onEditTemplate: (t: CtaTemplateRow) => void;
  onDeleteTemplate: (t: CtaTemplateRow) => void;
  onAdd: (type: ElementType) => void;
  onBrandColor: (color: string) => void;
};

const ADDABLE: Array<{ type: ElementType; label: string; icon: ReactNode }> = [
  { type: "text", label: "Text", icon: <TextIcon /> },
  { type: "image", label: "Image", icon: <ImageIcon /> },
  { type: "rectangle", label: "Rectangle", icon: <SquareIcon /> },
  { type: "circle", label: "Circle", icon: <CircleIcon /> },
];

/** The left panel: templates (built-in and custom, searchable), Add Elements, Brand Colors. */
export function CtaLeftPanel({
  custom,
  superAdmin,
  readOnly,
  onTemplate,
  onEditTemplate,
  onDeleteTemplate,
  onAdd,
  onBrandColor,
}: Props) {
  const [search, setSearch] = useState("");
  const term = search.trim().toLowerCase();
  const match = (name: string, category: string) =>
    !term || name.toLowerCase().includes(term) || category.toLowerCase().includes(term);
  return (
    <Flex direction="column" gap="4">
      <Flex direction="column" gap="2" data-testid="cta.templates">
        <Heading as="h2" size="3">
          Templates
        </Heading>
        <TextField.Root
          size="1"
          placeholder="Search templates"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          aria-label="Search templates"
        />
        <ScrollArea type="auto" style={{ maxHeight: 400 }}>
          <Flex direction="column" gap="1" pr="2">
            {(custom ?? [])
              .filter((t) => match(t.name, t.category))
              .map((t) => (
                <Flex key={t.id} align="center" gap="1">
                  <Button
                    size="1"
                    variant="ghost"
                    color="gray"
                    style={{ flex: 1, justifyContent: "space-between" }}
                    disabled={readOnly}
                    onClick={() =>
                      onTemplate({ id: t.id, name: t.name, category: t.category, design: t.design, builtIn: false })
                    }
                    data-testid="cta.template"
                  >
                    <Text truncate>{t.name}</Text>
                    <Badge size="1" color="blue">
                      {t.category}
                    </Badge>
                  </Button>
                  {superAdmin && (
                    <>
                      <Tooltip content="Edit template">
                        <IconButton
                          size="1"
                          variant="ghost"
                          aria-label={`Edit template ${t.name}`}
                          onClick={() => onEditTemplate(t)}
                          data-testid="cta.template.edit"
                        >
                          <Pencil1Icon />
                        </IconButton>
                      </Tooltip>
                      <Tooltip content="Delete template">
                        <IconButton
                          size="1"
                          variant="ghost"
                          color="red"
                          aria-label={`Delete template ${t.name}`}
                          onClick={() => onDeleteTemplate(t)}
                          data-testid="cta.template.delete"
                        >
                          <TrashIcon />
                        </IconButton>
                      </Tooltip>
                    </>
                  )}
                </Flex>
              ))}
            {BUILT_IN_CTA_TEMPLATES.filter((t) => match(t.name, t.category)).map((t) => (
              <Button
                key={t.id}
                size="1"
                variant="ghost"
                color="gray"
                style={{ justifyContent: "space-between" }}
                disabled={readOnly}
                onClick={() =>
                  onTemplate({ id: t.id, name: t.name, category: t.category, design: null, builtIn: true })
                }
                data-testid="cta.template"
              >
                <Text truncate>{t.name}</Text>
                <Badge size="1" color="gray">
                  {t.category}
                </Badge>
              </Button>
            ))}
          </Flex>
        </ScrollArea>
      </Flex>
      <Flex direction="column" gap="2">
        <Heading as="h2" size="3">
          Add Elements
        </Heading>
        <Grid columns="2" gap="2">
          {ADDABLE.map((a) => (
            <Button
              key={a.type}
              variant="soft"
              size="2"
              disabled={readOnly}
              onClick={() => onAdd(a.type)}
              data-testid={`cta.add.${a.type}`}
            >
              {a.icon} {a.label}
            </Button>
          ))}
        </Grid>
      </Flex>
      <Flex direction="column" gap="2">
        <Heading as="h2" size="3">
          Brand Colors
        </Heading>
        <Text size="1" color="gray">
          Applies to the selected element.
        </Text>
        <Flex gap="2">
          {BRAND_COLORS.map((c) => (
            <Box key={c} asChild>
              <button
                type="button"
                aria-label={`Use brand color ${c}`}
                disabled={readOnly}
                onClick={() => onBrandColor(c)}
                style={{
                  width: 32,
                  height: 32,
                  borderRadius: 6,
                  border: "1px solid var(--gray-a7)",
                  background: c,
                  cursor: "pointer",
                }}
                data-testid="cta.brandColor"
              />
            </Box>
          ))}
        </Flex>
      </Flex>
    </Flex>
  );
}
