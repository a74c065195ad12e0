import { Flex, Text, TextField } from "@radix-ui/themes";
import type { ChangeEvent } from "react";

type FormFieldProps = {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  type?: "text" | "email" | "password" | "tel";
  autoComplete?: string;
  disabled?: boolean;
  readOnly?: boolean;
  placeholder?: string;
};

/** A labelled text input (the label is the input's accessible name). */
export function FormField({
  id,
  label,
  value,
  onChange,
  type = "text",
  autoComplete,
  disabled,
  readOnly,
  placeholder,
}: FormFieldProps) {
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <TextField.Root
        id={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        disabled={disabled}
        readOnly={readOnly}
        placeholder={placeholder}
        onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
      />
    </Flex>
  );
}
