import { ArrowDownIcon, ArrowUpIcon, PlusIcon, TrashIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Card, Flex, Grid, Heading, IconButton, Text } from "@radix-ui/themes";
import { useState } from "react";
import type * as Y from "yjs";
import {
  addSurveyField,
  addSurveyPage,
  removeSurveyField,
  removeSurveyPage,
  stepSurveyField,
  updateSurveyPage,
  type SurveyDraft,
} from "@convex/lib/surveys/draft";
import {
  LAST_PAGE_WARNING,
  newPageId,
  newSurveyField,
  SURVEY_FIELD_TYPES,
  SURVEY_TYPE_LABELS,
  type SurveyField,
} from "@convex/lib/surveys/rules";
import { CollabTextField } from "@/ui/CollabText";
import { toast } from "@/ui/toast";
import { ConditionEditor } from "./ConditionEditor";
import { FieldProperties } from "./FieldProperties";

/** Edit Survey: field-type palette, page strip with the page's questions, properties of the selected question (or the page). */
export function SurveyBuilder({ doc, draft }: { doc: Y.Doc; draft: SurveyDraft }) {
  const [pageId, setPageId] = useState<string | null>(null);
  const [fieldId, setFieldId] = useState<string | null>(null);
  const pageIndex = Math.max(
    0,
    draft.pages.findIndex((p) => p.id === pageId),
  );
  const page = draft.pages[pageIndex];
  const field = page?.fields.find((f) => f.id === fieldId) ?? null;
  const earlier: SurveyField[] = draft.pages.slice(0, pageIndex).flatMap((p) => p.fields);

  const addField = (type: SurveyField["type"]) => {
    if (!page) return;
    const f = newSurveyField(type);
    addSurveyField(doc, page.id, f);
    setFieldId(f.id);
  };
  const addPage = () => {
    const id = newPageId();
    addSurveyPage(doc, id, `Page ${draft.pages.length + 1}`);
    setPageId(id);
    setFieldId(null);
  };
  const deletePage = () => {
    if (!page) return;
    if (draft.pages.length <= 1) {
      toast.warning(LAST_PAGE_WARNING);
      return;
    }
    removeSurveyPage(doc, page.id);
    setPageId(draft.pages[Math.max(0, pageIndex - 1)]?.id ?? null);
    setFieldId(null);
  };

  return (
    <Grid columns={{ initial: "1", md: "200px 1fr 320px" }} gap="4" align="start">
      <Card>
        <Heading as="h2" size="3" mb="2">
          Add a question
        </Heading>
        <Flex direction={{ initial: "row", md: "column" }} wrap="wrap" gap="1">
          {SURVEY_FIELD_TYPES.map((t) => (
            <Button
              key={t}
              size="1"
              variant="soft"
              onClick={() => addField(t)}
              data-testid={`survey.add.${t}`}
              style={{ justifyContent: "flex-start" }}
            >
              <PlusIcon /> {SURVEY_TYPE_LABELS[t]}
            </Button>
          ))}
        </Flex>
      </Card>
      <Flex direction="column" gap="3">
        <Flex gap="2" wrap="wrap" align="center" role="group" aria-label="Pages">
          {draft.pages.map((p, i) => (
            <Button
              key={p.id}
              size="1"
              aria-pressed={i === pageIndex}
              variant={i === pageIndex ? "solid" : "soft"}
              color={i === pageIndex ? undefined : "gray"}
              onClick={() => {
                setPageId(p.id);
                setFieldId(null);
              }}
              data-testid={`survey.page.${i}`}
            >
              {p.title || `Page ${i + 1}`}
              {p.condition && (
                <Badge size="1" color="orange" ml="1">
                  if
                </Badge>
              )}
            </Button>
          ))}
          <Button size="1" variant="outline" onClick={addPage} data-testid="survey.addPage">
            <PlusIcon /> Add Page
          </Button>
        </Flex>
        {page && (
          <Card>
            <Flex gap="2" align="end" mb="3">
              <Box flexGrow="1">
                <Text as="label" size="2" weight="medium" htmlFor="survey-page-title">
                  Page title
                </Text>
                <CollabTextField
                  id="survey-page-title"
                  value={page.title}
                  maxLength={200}
                  onChange={(e) => updateSurveyPage(doc, page.id, { title: e.target.value })}
                />
              </Box>
              <Button variant="soft" color="red" onClick={deletePage} data-testid="survey.deletePage">
                <TrashIcon /> Delete Page
              </Button>
            </Flex>
            {pageIndex > 0 && (
              <Box mb="3">
                <ConditionEditor
                  label="Show this page only when"
                  condition={page.condition}
                  earlier={earlier}
                  onChange={(condition) => updateSurveyPage(doc, page.id, { condition })}
                />
              </Box>
            )}
            {page.fields.length === 0 ? (
              <Text color="gray" size="2">
                No questions on this page yet. Add one from the list.
              </Text>
            ) : (
              <Flex direction="column" gap="2" data-testid="survey.fields">
                {page.fields.map((f, i) => (
                  <Card
                    key={f.id}
                    variant={f.id === fieldId ? "classic" : "surface"}
                    data-testid={`survey.fieldRow.${i}`}
                    style={f.id === fieldId ? { outline: "2px solid var(--accent-8)" } : undefined}
                  >
                    <Flex gap="2" align="center">
                      <Box flexGrow="1" style={{ minWidth: 0, cursor: "pointer" }} onClick={() => setFieldId(f.id)}>
                        <Button variant="ghost" size="2" onClick={() => setFieldId(f.id)} style={{ maxWidth: "100%" }}>
                          <Text truncate>{f.label || "Untitled question"}</Text>
                        </Button>
                        <Flex gap="1" mt="1" wrap="wrap">
                          <Badge size="1">{SURVEY_TYPE_LABELS[f.type]}</Badge>
                          {f.required && (
                            <Badge size="1" color="red">
                              Required
                            </Badge>
                          )}
                          {f.condition && (
                            <Badge size="1" color="orange">
                              Conditional
                            </Badge>
                          )}
                        </Flex>
                      </Box>
                      <IconButton
                        size="1"
                        variant="ghost"
                        aria-label={`Move ${f.label} up`}
                        disabled={i === 0}
                        onClick={() => stepSurveyField(doc, f.id, -1)}
                      >
                        <ArrowUpIcon />
                      </IconButton>
                      <IconButton
                        size="1"
                        variant="ghost"
                        aria-label={`Move ${f.label} down`}
                        disabled={i === page.fields.length - 1}
                        onClick={() => stepSurveyField(doc, f.id, 1)}
                      >
                        <ArrowDownIcon />
                      </IconButton>
                      <IconButton
                        size="1"
                        variant="ghost"
                        color="red"
                        aria-label={`Delete ${f.label}`}
                        onClick={() => removeSurveyField(doc, f.id)}
                      >
                        <TrashIcon />
                      </IconButton>
                    </Flex>
                  </Card>
                ))}
              </Flex>
            )}
          </Card>
        )}
      </Flex>
      <Card>
        {field ? (
          <FieldProperties doc={doc} field={field} earlier={earlier} />
        ) : (
          <Text color="gray" size="2">
            Select a question to edit its properties.
          </Text>
        )}
      </Card>
    </Grid>
  );
}
