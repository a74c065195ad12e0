import {
  Box,
  Button,
  Checkbox,
  Flex,
  RadioGroup,
  Select,
  Separator,
  Text,
  TextArea,
  TextField,
} from "@radix-ui/themes";
import type { FormEvent } from "react";
import { fieldOptions, VALUE_LIMITS, type FormField, type SubmissionValue } from "@convex/lib/forms/rules";

export type FormValues = Record<string, SubmissionValue | undefined>;

type FormRendererProps = {
  fields: FormField[];
  values: FormValues;
  errors?: Record<string, string>;
  onChange?: (id: string, value: SubmissionValue | undefined) => void;
  onSubmit?: () => void;
  submitting?: boolean;
  /** the honeypot: an input people never see or reach, that bots fill in */
  honeypot?: { value: string; onChange: (v: string) => void };
  submitLabel?: string;
  /** prefix of element ids, unique per rendered form on a page */
  idPrefix: string;
};

/** A form's fields as a respondent sees them: the preview, the View dialog and the public page. */
export function FormRenderer({
  fields,
  values,
  errors = {},
  onChange,
  onSubmit,
  submitting,
  honeypot,
  submitLabel = "Submit",
  idPrefix,
}: FormRendererProps) {
  const readOnly = !onChange;
  const handleSubmit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit?.();
  };
  return (
    <form onSubmit={handleSubmit} noValidate>
      <Flex direction="column" gap="4">
        {fields.map((f) => {
          if (f.type === "separator") return <Separator key={f.id} size="4" my="1" />;
          const id = `${idPrefix}-${f.id}`;
          const error = errors[f.id];
          const describedBy = error ? `${id}-error` : undefined;
          const set = (v: SubmissionValue | undefined) => onChange?.(f.id, v);
          const text = typeof values[f.id] === "string" || typeof values[f.id] === "number" ? String(values[f.id]) : "";
          return (
            <Box key={f.id} data-testid={`form.field.${f.id}`}>
              {f.type !== "checkbox" && (
                <Text as="label" htmlFor={id} size="2" weight="medium" id={`${id}-label`}>
                  {f.label}
                  {f.required && (
                    <Text color="red" aria-hidden>
                      {" "}
                      *
                    </Text>
                  )}
                </Text>
              )}
              <Box mt="1">
                {f.type === "textarea" ? (
                  <TextArea
                    id={id}
                    value={text}
                    maxLength={VALUE_LIMITS.textarea}
                    style={{ overflowWrap: "anywhere" }}
                    placeholder={f.placeholder ?? undefined}
                    readOnly={readOnly}
                    required={f.required}
                    aria-invalid={!!error}
                    aria-describedby={describedBy}
                    onChange={(e) => set(e.target.value)}
                  />
                ) : f.type === "select" ? (
                  <Select.Root value={text || undefined} onValueChange={(v) => set(v)} disabled={readOnly}>
                    <Select.Trigger
                      id={id}
                      placeholder={f.placeholder ?? "Select an option"}
                      style={{ width: "100%" }}
                      aria-invalid={!!error}
                      aria-labelledby={`${id}-label`}
                      aria-describedby={describedBy}
                    />
                    <Select.Content>
                      {fieldOptions(f).map((o) => (
                        <Select.Item key={o} value={o}>
                          {o}
                        </Select.Item>
                      ))}
                    </Select.Content>
                  </Select.Root>
                ) : f.type === "radio" ? (
                  <RadioGroup.Root
                    value={text}
                    onValueChange={(v) => set(v)}
                    disabled={readOnly}
                    aria-labelledby={`${id}-label`}
                    aria-describedby={describedBy}
                    aria-invalid={!!error}
                  >
                    {fieldOptions(f).map((o) => (
                      <RadioGroup.Item key={o} value={o}>
                        {o}
                      </RadioGroup.Item>
                    ))}
                  </RadioGroup.Root>
                ) : f.type === "checkbox" ? (
                  <Text as="label" size="2">
                    <Flex gap="2" align="center">
                      <Checkbox
                        id={id}
                        checked={values[f.id] === true}
                        disabled={readOnly}
                        aria-invalid={!!error}
                        aria-describedby={describedBy}
                        onCheckedChange={(c) => set(c === true ? true : undefined)}
                      />
                      {f.label}
                      {f.required && (
                        <Text color="red" aria-hidden>
                          {" "}
                          *
                        </Text>
                      )}
                    </Flex>
                  </Text>
                ) : (
                  <TextField.Root
                    id={id}
                    type={f.type === "tel" ? "tel" : f.type}
                    value={text}
                    maxLength={f.type === "number" ? undefined : VALUE_LIMITS[f.type]}
                    placeholder={f.placeholder ?? undefined}
                    readOnly={readOnly}
                    required={f.required}
                    aria-invalid={!!error}
                    aria-describedby={describedBy}
                    onChange={(e) => set(e.target.value === "" ? undefined : e.target.value)}
                  />
                )}
              </Box>
              {error && (
                <Text id={`${id}-error`} size="1" color="red" role="alert" data-testid={`form.error.${f.id}`}>
                  {error}
                </Text>
              )}
            </Box>
          );
        })}
        {honeypot && (
          <div
            aria-hidden="true"
            style={{ position: "absolute", left: "-10000px", width: 1, height: 1, overflow: "hidden" }}
          >
            <label htmlFor={`${idPrefix}-website`}>Website</label>
            <input
              id={`${idPrefix}-website`}
              name="website"
              type="text"
              tabIndex={-1}
              autoComplete="off"
              value={honeypot.value}
              onChange={(e) => honeypot.onChange(e.target.value)}
            />
          </div>
        )}
        {onSubmit && (
          <Button type="submit" size="3" loading={submitting} data-testid="form.submit">
            {submitLabel}
          </Button>
        )}
      </Flex>
    </form>
  );
}
