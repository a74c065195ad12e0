import { Box, Button, Flex, Slider, Text, TextArea, TextField } from "@radix-ui/themes";
import { MAX_SHORT_ANSWER, MAX_TEXT_ANSWER, type Answer, type SurveyField } from "@convex/lib/surveys/rules";

type ScriptQuestionProps = {
  field: SurveyField;
  value: Answer | undefined;
  error?: string;
  onChange(v: Answer | undefined): void;
};

/** A choice as a large toggle (one hand, a thumb's width): pressed when chosen. */
function Choice({ label, on, onClick }: { label: string; on: boolean; onClick(): void }) {
  return (
    <Button
      type="button"
      size="3"
      variant={on ? "solid" : "surface"}
      aria-pressed={on}
      onClick={onClick}
      style={{ minHeight: 44, justifyContent: "flex-start", textAlign: "left", height: "auto", whiteSpace: "normal" }}
    >
      {label}
    </Button>
  );
}

/**
 * One question of the list's script survey as the canvasser asks it at the door: the survey's own
 * rules (question types, options, required marks), with choices as large buttons rather than the
 * respondent form's small controls.
 */
export function ScriptQuestion({ field: f, value, error, onChange }: ScriptQuestionProps) {
  const id = `script-${f.id}`;
  const labelId = `${id}-label`;
  const describedBy =
    [f.description ? `${id}-desc` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const options = f.options.map((o) => o.trim()).filter(Boolean);
  const text = typeof value === "string" || typeof value === "number" ? String(value) : "";
  let input;
  switch (f.type) {
    case "radio":
    case "select":
      input = (
        <Flex direction="column" gap="2" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
          {options.map((o) => (
            <Choice key={o} label={o} on={value === o} onClick={() => onChange(value === o ? undefined : o)} />
          ))}
        </Flex>
      );
      break;
    case "checkbox": {
      const picked = Array.isArray(value) ? value : [];
      input = (
        <Flex direction="column" gap="2" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
          {options.map((o) => (
            <Choice
              key={o}
              label={o}
              on={picked.includes(o)}
              onClick={() => {
                const next = picked.includes(o)
                  ? picked.filter((x) => x !== o)
                  : [...picked, o].sort((a, b) => options.indexOf(a) - options.indexOf(b));
                onChange(next.length > 0 ? next : undefined);
              }}
            />
          ))}
        </Flex>
      );
      break;
    }
    case "rating": {
      const max = f.maxRating ?? 5;
      const choices = f.ratingType === "thumbs" ? [1, -1] : Array.from({ length: max }, (_, i) => i + 1);
      input = (
        <Flex gap="2" wrap="wrap" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
          {choices.map((n) => (
            <Button
              key={n}
              type="button"
              size="3"
              variant={value === n ? "solid" : "surface"}
              aria-pressed={value === n}
              aria-label={f.ratingType === "thumbs" ? (n === 1 ? "Thumbs up" : "Thumbs down") : String(n)}
              onClick={() => onChange(value === n ? undefined : n)}
              style={{ minWidth: 44, minHeight: 44 }}
            >
              {f.ratingType === "thumbs" ? (n === 1 ? "👍" : "👎") : n}
            </Button>
          ))}
        </Flex>
      );
      break;
    }
    case "slider": {
      const min = f.min ?? 0;
      input = (
        <Flex gap="3" align="center">
          <Box flexGrow="1">
            <Slider
              size="3"
              value={[typeof value === "number" ? value : min]}
              min={min}
              max={f.max ?? 100}
              step={f.step ?? 1}
              onValueChange={([v]) => onChange(v)}
              aria-labelledby={labelId}
              aria-describedby={describedBy}
            />
          </Box>
          <Text size="3" weight="bold" style={{ minWidth: 36, textAlign: "right" }}>
            {typeof value === "number" ? value : "—"}
          </Text>
        </Flex>
      );
      break;
    }
    case "textarea":
      input = (
        <TextArea
          id={id}
          size="3"
          value={text}
          maxLength={MAX_TEXT_ANSWER}
          aria-invalid={!!error}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
        />
      );
      break;
    default:
      input = (
        <TextField.Root
          id={id}
          size="3"
          type={f.type === "phone" ? "tel" : f.type}
          inputMode={f.type === "number" ? "decimal" : undefined}
          value={text}
          maxLength={f.type === "number" ? undefined : MAX_SHORT_ANSWER}
          placeholder={f.placeholder ?? undefined}
          aria-invalid={!!error}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
        />
      );
  }
  return (
    <Box data-testid={`canvass.script.${f.id}`}>
      <Text as="label" htmlFor={id} id={labelId} size="3" weight="medium">
        {f.label}
        {f.required && (
          <Text color="red" aria-hidden>
            {" "}
            *
          </Text>
        )}
      </Text>
      {f.description && (
        <Text as="p" id={`${id}-desc`} size="2" color="gray">
          {f.description}
        </Text>
      )}
      <Box mt="2">{input}</Box>
      {error && (
        <Text as="p" id={`${id}-error`} size="2" color="red" role="alert">
          {error}
        </Text>
      )}
    </Box>
  );
}
