import { Flex, Text, TextField } from "@radix-ui/themes";

type LabeledInputProps = {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  type?: "text" | "email" | "password" | "tel";
  required?: boolean;
  autoComplete?: string;
};

export function LabeledInput({ id, label, value, onChange, type = "text", required, autoComplete }: LabeledInputProps) {
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
        {required && <Text color="red"> *</Text>}
      </Text>
      <TextField.Root
        id={id}
        type={type}
        value={value}
        required={required}
        autoComplete={autoComplete}
        onChange={(e) => onChange(e.target.value)}
      />
    </Flex>
  );
}
