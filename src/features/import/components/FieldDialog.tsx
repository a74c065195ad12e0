import { Button, Dialog, Flex, Select, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { normalizeFieldKey, type CustomFieldType, type NewFieldDef } from "@/lib/import/fields";
import { toast } from "@/ui/toast";
import { TEXTS } from "@convex/lib/texts";

type FieldDialogProps = {
  mode: "create" | "edit";
  column: string;
  initial?: NewFieldDef;
  takenKeys: string[];
  onClose(): void;
  onSave(def: NewFieldDef): void;
};

const TYPES: CustomFieldType[] = ["text", "email", "phone", "date", "number"];

/** Create New Database Field / Edit Database Field: the key follows spec/1 §5's normalisation. */
export function FieldDialog({ mode, column, initial, takenKeys, onClose, onSave }: FieldDialogProps) {
  const [name, setName] = useState(initial?.key ?? normalizeFieldKey(column));
  const [label, setLabel] = useState(initial?.label ?? column);
  const [type, setType] = useState<CustomFieldType>(initial?.type ?? "text");
  const key = normalizeFieldKey(name).replace(/^_+/, "");
  const handleSave = () => {
    if (!key || !label.trim()) {
      toast.error("Missing information", { description: TEXTS.import.fieldNameAndLabel });
      return;
    }
    if (takenKeys.includes(key) && key !== initial?.key) {
      toast.error("Error creating field", { description: "Could not create the custom field. Please try again." });
      return;
    }
    onSave({ key, label: label.trim(), type });
  };
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="460px">
        <Dialog.Title>{mode === "create" ? "Create New Database Field" : "Edit Database Field"}</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          For column “{column}”. The field becomes an organisation custom field.
        </Dialog.Description>
        <Flex direction="column" gap="3">
          <label>
            <Text size="2" weight="medium">
              Field name
            </Text>
            <TextField.Root aria-label="Field name" value={name} onChange={(e) => setName(e.target.value)} />
            <Text size="1" color="gray">
              Stored as “{key}”
            </Text>
          </label>
          <label>
            <Text size="2" weight="medium">
              Label
            </Text>
            <TextField.Root aria-label="Label" value={label} onChange={(e) => setLabel(e.target.value)} />
          </label>
          <Flex direction="column">
            <Text size="2" weight="medium">
              Type
            </Text>
            <Select.Root value={type} onValueChange={(v) => setType(v as CustomFieldType)}>
              <Select.Trigger aria-label="Field type" />
              <Select.Content>
                {TYPES.map((t) => (
                  <Select.Item key={t} value={t}>
                    {t}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Button variant="soft" color="gray" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={handleSave}>{mode === "create" ? "Create Field" : "Save Field"}</Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
