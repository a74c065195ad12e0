import { PlusIcon, TrashIcon } from "@radix-ui/react-icons";
import { Button, Flex, IconButton, Select, Text, TextField } from "@radix-ui/themes";
import {
  DISTRICT_FIELD,
  DISTRICT_FIELD_LABEL,
  RULE_FIELD_LABELS,
  RULE_FIELDS,
  RULE_OPERATOR_LABELS,
  RULE_OPERATORS,
  TIME_UNIT_LABELS,
  TIME_UNITS,
  type EmailRule,
  type RuleField,
  type RuleOperator,
  type TimeUnit,
} from "@convex/lib/email/rules";
import { blankRule, canRemoveRule, MAX_RULES, needsValue, shownRules } from "./rulesForm";

type RulesEditorProps = {
  rules: EmailRule[];
  onChange(rules: EmailRule[]): void;
  /** event rules also carry a time delay and its unit */
  event?: boolean;
  disabled?: boolean;
  /** names the rows for assistive technology ("Event rule" → "Event rule 1 field") */
  label: string;
  testId: string;
};

/**
 * Rule rows of field, operator and value (plus delay and unit for event rules), shared by the
 * Automated tab's event and filter rules and the segment dialog. The value input is hidden for
 * "is empty" and "is not empty"; a rule can be removed only while more than one remains.
 */
export function RulesEditor({ rules, onChange, event = false, disabled = false, label, testId }: RulesEditorProps) {
  const rows = shownRules(rules, event);
  const patch = (index: number, change: Partial<EmailRule>) =>
    onChange(rows.map((r, i) => (i === index ? { ...r, ...change } : r)));
  const removable = canRemoveRule(rows);
  return (
    <Flex direction="column" gap="2" data-testid={testId}>
      {rows.map((rule, i) => {
        const name = `${label} ${i + 1}`;
        return (
          <Flex key={rule.id} gap="2" wrap="wrap" align="center" data-testid={`${testId}.row`}>
            <Select.Root
              value={rule.field}
              onValueChange={(v) => patch(i, { field: v as RuleField })}
              disabled={disabled}
            >
              <Select.Trigger aria-label={`${name} field`} placeholder="Select field" style={{ minWidth: 150 }} />
              <Select.Content>
                {RULE_FIELDS.map((f) => (
                  <Select.Item key={f} value={f}>
                    {RULE_FIELD_LABELS[f]}
                  </Select.Item>
                ))}
                {/* a segment made from a district (/districts) keeps its district rule */}
                {rule.field === DISTRICT_FIELD && (
                  <Select.Item value={DISTRICT_FIELD}>{DISTRICT_FIELD_LABEL}</Select.Item>
                )}
              </Select.Content>
            </Select.Root>
            <Select.Root
              value={rule.operator}
              onValueChange={(v) =>
                patch(i, {
                  operator: v as RuleOperator,
                  ...(needsValue({ operator: v as RuleOperator }) ? {} : { value: "" }),
                })
              }
              disabled={disabled}
            >
              <Select.Trigger aria-label={`${name} operator`} style={{ minWidth: 140 }} />
              <Select.Content>
                {RULE_OPERATORS.map((o) => (
                  <Select.Item key={o} value={o}>
                    {RULE_OPERATOR_LABELS[o]}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
            {needsValue(rule) && (
              <TextField.Root
                aria-label={`${name} value`}
                placeholder="Value"
                value={rule.value}
                maxLength={200}
                disabled={disabled}
                onChange={(e) => patch(i, { value: e.target.value })}
                style={{ flex: "1 1 140px", minWidth: 120 }}
                data-testid={`${testId}.value`}
              />
            )}
            {event && (
              <Flex gap="2" align="center">
                <Text size="1" color="gray">
                  after
                </Text>
                <TextField.Root
                  type="number"
                  min={0}
                  aria-label={`${name} time delay`}
                  value={String(rule.timeDelay ?? 0)}
                  disabled={disabled}
                  onChange={(e) => patch(i, { timeDelay: Math.max(0, Math.floor(Number(e.target.value) || 0)) })}
                  style={{ width: 72 }}
                />
                <Select.Root
                  value={rule.timeUnit ?? "minutes"}
                  onValueChange={(v) => patch(i, { timeUnit: v as TimeUnit })}
                  disabled={disabled}
                >
                  <Select.Trigger aria-label={`${name} time unit`} />
                  <Select.Content>
                    {TIME_UNITS.map((u) => (
                      <Select.Item key={u} value={u}>
                        {TIME_UNIT_LABELS[u]}
                      </Select.Item>
                    ))}
                  </Select.Content>
                </Select.Root>
              </Flex>
            )}
            {removable && !disabled && (
              <IconButton
                type="button"
                variant="ghost"
                color="red"
                aria-label={`Remove ${name.toLowerCase()}`}
                onClick={() => onChange(rows.filter((_, j) => j !== i))}
              >
                <TrashIcon />
              </IconButton>
            )}
          </Flex>
        );
      })}
      {!disabled && (
        <Button
          type="button"
          variant="soft"
          size="1"
          style={{ alignSelf: "flex-start" }}
          disabled={rows.length >= MAX_RULES}
          onClick={() => onChange([...rows, blankRule(event)])}
        >
          <PlusIcon /> Add rule
        </Button>
      )}
    </Flex>
  );
}
