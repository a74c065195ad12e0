import { Flex, Grid, Heading, Select, Switch, Text, TextArea, TextField } from "@radix-ui/themes";
import type * as Y from "yjs";
import { updateSurveyField } from "@convex/lib/surveys/draft";
import {
  hasOptions,
  RATING_TYPES,
  SURVEY_TYPE_LABELS,
  type RatingType,
  type SurveyField,
} from "@convex/lib/surveys/rules";
import { CollabTextArea, CollabTextField } from "@/ui/CollabText";
import { ConditionEditor } from "./ConditionEditor";

const numberOrNull = (s: string) => (s.trim() === "" || !Number.isFinite(Number(s)) ? null : Number(s));

/** The selected question's properties: label, placeholder, description, required, and its type's own (options, rating, slider, number bounds), skip logic. */
export function FieldProperties({
  doc,
  field: f,
  earlier,
}: {
  doc: Y.Doc;
  field: SurveyField;
  earlier: SurveyField[];
}) {
  const set = (patch: Partial<Omit<SurveyField, "id">>) => updateSurveyField(doc, f.id, patch);
  return (
    <Flex direction="column" gap="3" data-testid="survey.properties">
      <Heading as="h2" size="3">
        {SURVEY_TYPE_LABELS[f.type]} question
      </Heading>
      <label>
        <Text size="2" weight="medium">
          Label
        </Text>
        <CollabTextField
          value={f.label}
          maxLength={500}
          onChange={(e) => set({ label: e.target.value })}
          data-testid="survey.prop.label"
        />
      </label>
      <label>
        <Text size="2" weight="medium">
          Description
        </Text>
        <CollabTextArea
          value={f.description ?? ""}
          maxLength={1000}
          onChange={(e) => set({ description: e.target.value || null })}
        />
      </label>
      {!hasOptions(f.type) && f.type !== "rating" && f.type !== "slider" && (
        <label>
          <Text size="2" weight="medium">
            Placeholder
          </Text>
          <CollabTextField
            value={f.placeholder ?? ""}
            maxLength={200}
            onChange={(e) => set({ placeholder: e.target.value || null })}
          />
        </label>
      )}
      <Text as="label" size="2">
        <Flex gap="2" align="center">
          <Switch
            checked={f.required}
            onCheckedChange={(c) => set({ required: c })}
            data-testid="survey.prop.required"
          />
          Required
        </Flex>
      </Text>
      {hasOptions(f.type) && (
        <label>
          <Text size="2" weight="medium">
            Options (one per line)
          </Text>
          <TextArea
            value={f.options.join("\n")}
            onChange={(e) => set({ options: e.target.value.split("\n").slice(0, 60) })}
            data-testid="survey.prop.options"
          />
        </label>
      )}
      {f.type === "rating" && (
        <Grid columns="2" gap="2">
          <label>
            <Text size="2" weight="medium">
              Maximum (2–10)
            </Text>
            <TextField.Root
              type="number"
              min={2}
              max={10}
              value={String(f.maxRating ?? 5)}
              onChange={(e) => set({ maxRating: Math.max(2, Math.min(10, Math.round(Number(e.target.value) || 5))) })}
              data-testid="survey.prop.maxRating"
            />
          </label>
          <label>
            <Text size="2" weight="medium">
              Style
            </Text>
            <Select.Root value={f.ratingType ?? "stars"} onValueChange={(v) => set({ ratingType: v as RatingType })}>
              <Select.Trigger style={{ width: "100%" }} aria-label="Rating style" />
              <Select.Content>
                {RATING_TYPES.map((t) => (
                  <Select.Item key={t} value={t}>
                    {t}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </label>
        </Grid>
      )}
      {(f.type === "slider" || f.type === "number") && (
        <Grid columns={f.type === "slider" ? "3" : "2"} gap="2">
          <label>
            <Text size="2" weight="medium">
              Minimum
            </Text>
            <TextField.Root
              type="number"
              value={f.min === null ? "" : String(f.min)}
              onChange={(e) =>
                set({ min: f.type === "slider" ? (numberOrNull(e.target.value) ?? 0) : numberOrNull(e.target.value) })
              }
              data-testid="survey.prop.min"
            />
          </label>
          <label>
            <Text size="2" weight="medium">
              Maximum
            </Text>
            <TextField.Root
              type="number"
              value={f.max === null ? "" : String(f.max)}
              onChange={(e) =>
                set({ max: f.type === "slider" ? (numberOrNull(e.target.value) ?? 100) : numberOrNull(e.target.value) })
              }
              data-testid="survey.prop.max"
            />
          </label>
          {f.type === "slider" && (
            <label>
              <Text size="2" weight="medium">
                Step (≥ 1)
              </Text>
              <TextField.Root
                type="number"
                min={1}
                value={String(f.step ?? 1)}
                onChange={(e) => set({ step: Math.max(1, Number(e.target.value) || 1) })}
                data-testid="survey.prop.step"
              />
            </label>
          )}
        </Grid>
      )}
      <ConditionEditor
        label="Show this question only when"
        condition={f.condition}
        earlier={earlier}
        onChange={(condition) => set({ condition })}
      />
    </Flex>
  );
}
