import { Button, Callout, Checkbox, Dialog, Flex, Select, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { errorMessage, toast } from "@/ui/toast";
import { useAddCustomField } from "../hooks/useCustomFields";
import { CUSTOM_FIELD_TYPES } from "../utils/voterForm";

type AddFieldDialogProps = { open: boolean; onOpenChange(open: boolean): void };
type FieldType = (typeof CUSTOM_FIELD_TYPES)[number]["value"];

/**
 * Creates an organisation-wide custom field (label, type, required, dropdown options). What the
 * server refuses (a label already taken, say) is shown in the dialog, which stays open.
 */
export function AddFieldDialog({ open, onOpenChange }: AddFieldDialogProps) {
  const { create } = useAddCustomField();
  const [label, setLabel] = useState("");
  const [type, setType] = useState<FieldType | "">("");
  const [required, setRequired] = useState(false);
  const [options, setOptions] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const handleAdd = async () => {
    if (!label.trim() || !type) return;
    setBusy(true);
    setError(null);
    try {
      await create({
        label,
        type,
        required,
        options:
          type === "dropdown"
            ? options
                .split(",")
                .map((o) => o.trim())
                .filter(Boolean)
            : undefined,
      });
      toast.success("Field added", { description: label.trim() });
      setLabel("");
      setType("");
      setRequired(false);
      setOptions("");
      onOpenChange(false);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        if (!o) setError(null);
        onOpenChange(o);
      }}
    >
      <Dialog.Content maxWidth="440px">
        <Dialog.Title>Add Field</Dialog.Title>
        <Flex direction="column" gap="3">
          <label>
            <Text size="2" weight="medium">
              Label
            </Text>
            <TextField.Root
              value={label}
              onChange={(e) => {
                setLabel(e.target.value);
                setError(null);
              }}
              aria-label="Field label"
              aria-invalid={error !== null}
              aria-describedby={error ? "add-field-error" : undefined}
            />
          </label>
          <div>
            <Text size="2" weight="medium" as="div">
              Type
            </Text>
            <Select.Root value={type} onValueChange={(v) => setType(v as FieldType)}>
              <Select.Trigger aria-label="Field type" placeholder="Select a type" style={{ width: "100%" }} />
              <Select.Content>
                {CUSTOM_FIELD_TYPES.map((t) => (
                  <Select.Item key={t.value} value={t.value}>
                    {t.label}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </div>
          {type === "dropdown" && (
            <label>
              <Text size="2" weight="medium">
                Options (comma-separated)
              </Text>
              <TextField.Root
                value={options}
                onChange={(e) => setOptions(e.target.value)}
                aria-label="Dropdown options"
              />
            </label>
          )}
          <Text as="label" size="2">
            <Flex gap="2" align="center">
              <Checkbox checked={required} onCheckedChange={(c) => setRequired(c === true)} /> Required
            </Flex>
          </Text>
          {error && (
            <Callout.Root color="red" role="alert" size="1" id="add-field-error" data-testid="voters.fieldError">
              <Callout.Text>{error}</Callout.Text>
            </Callout.Root>
          )}
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button disabled={!label.trim() || !type} loading={busy} onClick={() => void handleAdd()}>
            Add Field
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
