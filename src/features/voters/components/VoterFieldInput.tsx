import { Select, Text, TextArea, TextField } from "@radix-ui/themes";
import { isFullDate } from "../utils/voterDisplay";
import type { FormFieldDef } from "../utils/voterForm";

type VoterFieldInputProps = { def: FormFieldDef; value: string; onChange(value: string): void };

const NONE = "__none__";

/** One labelled input of the voter form, by field type (a partial date such as a birth year as text). */
export function VoterFieldInput({ def, value, onChange }: VoterFieldInputProps) {
  const label = `${def.label}${def.required ? " *" : ""}`;
  const id = `voter-field-${def.key}`;
  let input;
  if (def.type === "textarea") {
    input = <TextArea id={id} value={value} onChange={(e) => onChange(e.target.value)} rows={3} />;
  } else if (def.type === "dropdown" || def.type === "boolean" || def.key === "state_voter_history") {
    const options =
      def.type === "boolean"
        ? ["Yes", "No"]
        : def.key === "state_voter_history"
          ? ["0", "1", "2", "3", "4"]
          : (def.options ?? []);
    input = (
      <Select.Root value={value || NONE} onValueChange={(v) => onChange(v === NONE ? "" : v)}>
        <Select.Trigger id={id} aria-label={def.label} style={{ width: "100%" }} />
        <Select.Content>
          <Select.Item value={NONE}>—</Select.Item>
          {options.map((o) => (
            <Select.Item key={o} value={o}>
              {o}
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
    );
  } else {
    // a date the state file gave only in part ("1921") stays text: a date input would show it empty
    const partialDate = def.type === "date" && value.trim() !== "" && !isFullDate(value);
    const type =
      def.type === "email"
        ? "email"
        : def.type === "phone"
          ? "tel"
          : def.type === "date" && !partialDate
            ? "date"
            : "text";
    input = <TextField.Root id={id} type={type} value={value} onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <div>
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      {input}
    </div>
  );
}
