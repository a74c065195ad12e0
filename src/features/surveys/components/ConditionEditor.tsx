import { Flex, Select, Text, TextField } from "@radix-ui/themes";
import {
  CONDITION_LABELS,
  CONDITION_OPS,
  type Condition,
  type ConditionOp,
  type SurveyField,
} from "@convex/lib/surveys/rules";

const NONE = "__always";

/** Skip logic: shown always, or only when an earlier question's answer equals / contains / is greater than a value. */
export function ConditionEditor({
  label,
  condition,
  earlier,
  onChange,
}: {
  label: string;
  condition: Condition | null;
  earlier: SurveyField[];
  onChange: (c: Condition | null) => void;
}) {
  if (earlier.length === 0)
    return (
      <Text size="1" color="gray">
        Skip logic can refer to questions on earlier pages.
      </Text>
    );
  return (
    <Flex direction="column" gap="2">
      <Text size="2" weight="medium">
        {label}
      </Text>
      <Select.Root
        value={condition?.fieldId ?? NONE}
        onValueChange={(v) =>
          onChange(v === NONE ? null : { fieldId: v, op: condition?.op ?? "equals", value: condition?.value ?? "" })
        }
      >
        <Select.Trigger aria-label={`${label}: question`} data-testid="survey.conditionField" />
        <Select.Content>
          <Select.Item value={NONE}>Always show</Select.Item>
          {earlier.map((f) => (
            <Select.Item key={f.id} value={f.id}>
              {f.label}
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
      {condition && (
        <Flex gap="2" wrap="wrap">
          <Select.Root value={condition.op} onValueChange={(op) => onChange({ ...condition, op: op as ConditionOp })}>
            <Select.Trigger aria-label={`${label}: comparison`} />
            <Select.Content>
              {CONDITION_OPS.map((op) => (
                <Select.Item key={op} value={op}>
                  {CONDITION_LABELS[op]}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
          <TextField.Root
            aria-label={`${label}: value`}
            value={condition.value}
            maxLength={200}
            onChange={(e) => onChange({ ...condition, value: e.target.value })}
            data-testid="survey.conditionValue"
          />
        </Flex>
      )}
    </Flex>
  );
}
