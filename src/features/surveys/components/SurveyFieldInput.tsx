import { Box, Button, Checkbox, Flex, RadioGroup, Select, Slider, Text, TextArea, TextField } from "@radix-ui/themes";
import { MAX_SHORT_ANSWER, MAX_TEXT_ANSWER, type Answer, type SurveyField } from "@convex/lib/surveys/rules";

type SurveyFieldInputProps = {
  field: SurveyField;
  value: Answer | undefined;
  error?: string;
  onChange: (v: Answer | undefined) => void;
  idPrefix: string;
};

/** One question as a respondent answers it (every type of spec/3 §3.4, with its label, description and error). */
export function SurveyFieldInput({ field: f, value, error, onChange, idPrefix }: SurveyFieldInputProps) {
  const id = `${idPrefix}-${f.id}`;
  const labelId = `${id}-label`;
  const describedBy =
    [f.description ? `${id}-desc` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const text = typeof value === "string" || typeof value === "number" ? String(value) : "";
  const options = f.options.map((o) => o.trim()).filter(Boolean);
  let input;
  switch (f.type) {
    case "textarea":
      input = (
        <TextArea
          id={id}
          value={text}
          maxLength={MAX_TEXT_ANSWER}
          style={{ overflowWrap: "anywhere" }}
          placeholder={f.placeholder ?? undefined}
          aria-invalid={!!error}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case "select":
      input = (
        <Select.Root value={text || undefined} onValueChange={(v) => onChange(v)}>
          <Select.Trigger
            id={id}
            placeholder={f.placeholder ?? "Select an option"}
            style={{ width: "100%" }}
            aria-labelledby={labelId}
            aria-describedby={describedBy}
            aria-invalid={!!error}
          />
          <Select.Content>
            {options.map((o) => (
              <Select.Item key={o} value={o}>
                {o}
              </Select.Item>
            ))}
          </Select.Content>
        </Select.Root>
      );
      break;
    case "radio":
      input = (
        <RadioGroup.Root
          value={text}
          onValueChange={(v) => onChange(v)}
          aria-labelledby={labelId}
          aria-describedby={describedBy}
        >
          {options.map((o) => (
            <RadioGroup.Item key={o} value={o}>
              {o}
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
      );
      break;
    case "checkbox": {
      const picked = Array.isArray(value) ? value : [];
      input = (
        <Flex direction="column" gap="1" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
          {options.map((o) => (
            <Text as="label" size="2" key={o}>
              <Flex gap="2" align="center">
                <Checkbox
                  checked={picked.includes(o)}
                  onCheckedChange={(c) =>
                    onChange(
                      c === true
                        ? [...picked.filter((x) => x !== o), o].sort((a, b) => options.indexOf(a) - options.indexOf(b))
                        : picked.filter((x) => x !== o),
                    )
                  }
                />
                {o}
              </Flex>
            </Text>
          ))}
        </Flex>
      );
      break;
    }
    case "rating": {
      const max = f.maxRating ?? 5;
      const choices = f.ratingType === "thumbs" ? [1, -1] : Array.from({ length: max }, (_, i) => i + 1);
      input = (
        <Flex gap="1" wrap="wrap" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
          {choices.map((n) => {
            const on = f.ratingType === "stars" ? typeof value === "number" && n <= value : value === n;
            const name =
              f.ratingType === "thumbs"
                ? n === 1
                  ? "Thumbs up"
                  : "Thumbs down"
                : f.ratingType === "stars"
                  ? `${n} ${n === 1 ? "star" : "stars"}`
                  : String(n);
            return (
              <Button
                key={n}
                type="button"
                size="2"
                variant={on ? "solid" : "soft"}
                color={f.ratingType === "stars" ? "amber" : undefined}
                aria-label={name}
                aria-pressed={value === n}
                onClick={() => onChange(n)}
              >
                {f.ratingType === "thumbs" ? (n === 1 ? "👍" : "👎") : f.ratingType === "stars" ? "★" : n}
              </Button>
            );
          })}
        </Flex>
      );
      break;
    }
    case "slider": {
      const min = f.min ?? 0;
      const current = typeof value === "number" ? value : min;
      input = (
        <Flex gap="3" align="center">
          <Box flexGrow="1">
            <Slider
              value={[current]}
              min={min}
              max={f.max ?? 100}
              step={f.step ?? 1}
              onValueChange={([v]) => onChange(v)}
              aria-labelledby={labelId}
              aria-describedby={describedBy}
            />
          </Box>
          <Text
            size="2"
            weight="medium"
            style={{ minWidth: 32, textAlign: "right" }}
            data-testid={`survey.sliderValue.${f.id}`}
          >
            {typeof value === "number" ? value : "—"}
          </Text>
        </Flex>
      );
      break;
    }
    default:
      input = (
        <TextField.Root
          id={id}
          type={f.type === "phone" ? "tel" : f.type}
          value={text}
          maxLength={f.type === "number" ? undefined : MAX_SHORT_ANSWER}
          placeholder={f.placeholder ?? undefined}
          min={f.type === "number" && f.min !== null ? f.min : undefined}
          max={f.type === "number" && f.max !== null ? f.max : undefined}
          aria-invalid={!!error}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
        />
      );
  }
  return (
    <Box data-testid={`survey.field.${f.id}`}>
      <Text as="label" htmlFor={id} id={labelId} size="2" weight="medium">
        {f.label}
        {f.required && (
          <Text color="red" aria-hidden>
            {" "}
            *
          </Text>
        )}
      </Text>
      {f.description && (
        <Text as="p" id={`${id}-desc`} size="1" color="gray">
          {f.description}
        </Text>
      )}
      <Box mt="1">{input}</Box>
      {error && (
        <Text id={`${id}-error`} size="1" color="red" role="alert">
          {error}
        </Text>
      )}
    </Box>
  );
}
