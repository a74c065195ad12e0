import { Select } from "@radix-ui/themes";
import { CREATE_NEW, IGNORE, TARGET_FIELDS } from "@/lib/import/fields";

type TargetSelectProps = {
  column: string;
  value: string;
  customFields: { key: string; label: string }[];
  onChange(value: string): void;
};

/** Target database field for one column: a field, a custom field, create new, or ignore. */
export function TargetSelect({ column, value, customFields, onChange }: TargetSelectProps) {
  return (
    <Select.Root value={value} onValueChange={onChange}>
      <Select.Trigger aria-label={`Target field for ${column}`} style={{ minWidth: 220 }} />
      <Select.Content position="popper">
        <Select.Item value={IGNORE}>Ignore this column</Select.Item>
        <Select.Item value={CREATE_NEW}>+ Create new field…</Select.Item>
        <Select.Separator />
        <Select.Group>
          <Select.Label>Contact fields</Select.Label>
          {TARGET_FIELDS.map((f) => (
            <Select.Item key={f.key} value={f.key}>
              {f.label}
              {f.required ? " *" : ""}
            </Select.Item>
          ))}
        </Select.Group>
        {customFields.length > 0 && (
          <Select.Group>
            <Select.Label>Custom fields</Select.Label>
            {customFields.map((f) => (
              <Select.Item key={f.key} value={f.key}>
                {f.label}
              </Select.Item>
            ))}
          </Select.Group>
        )}
      </Select.Content>
    </Select.Root>
  );
}
