import { Cross2Icon } from "@radix-ui/react-icons";
import { Badge, Button, Flex, IconButton, Text, TextArea } from "@radix-ui/themes";
import { useState } from "react";
import { addManualAddresses, manualAddSummary } from "./manualAddresses";

type ManualRecipientsProps = {
  value: readonly string[];
  onChange(next: string[]): Promise<boolean>;
  disabled?: boolean;
};

/** Chips shown before "and n more". */
const SHOWN = 50;

/** Addresses typed in by hand (commas or new lines between them), shown as removable chips. */
export function ManualRecipients({ value, onChange, disabled = false }: ManualRecipientsProps) {
  const [input, setInput] = useState("");
  const [note, setNote] = useState<string | null>(null);

  const handleAdd = async () => {
    const r = addManualAddresses(value, input);
    setNote(manualAddSummary(r));
    if (r.added.length === 0) return;
    if (await onChange(r.next)) setInput(r.invalid.join(", "));
  };

  return (
    <Flex direction="column" gap="2" data-testid="email.manual">
      <label>
        <Text as="div" size="2" weight="medium">
          Add email addresses
        </Text>
        <Text as="div" size="1" color="gray" mb="1">
          Separate addresses with commas or new lines.
        </Text>
        <TextArea
          value={input}
          disabled={disabled}
          rows={3}
          onChange={(e) => setInput(e.target.value)}
          placeholder="ada@example.org, grace@example.org"
        />
      </label>
      <Flex gap="2" align="center" wrap="wrap">
        <Button size="1" variant="soft" disabled={disabled || !input.trim()} onClick={() => void handleAdd()}>
          Add addresses
        </Button>
        {note && (
          <Text size="1" color="gray" role="status">
            {note}
          </Text>
        )}
      </Flex>
      {value.length > 0 && (
        <Flex gap="1" wrap="wrap" role="list" aria-label="Manual recipients">
          {value.slice(0, SHOWN).map((address) => (
            <Badge key={address} role="listitem" size="2" variant="soft" color="gray" style={{ maxWidth: "100%" }}>
              <Text truncate>{address}</Text>
              {!disabled && (
                <IconButton
                  type="button"
                  size="1"
                  variant="ghost"
                  color="gray"
                  aria-label={`Remove ${address}`}
                  onClick={() => void onChange(value.filter((a) => a !== address))}
                >
                  <Cross2Icon />
                </IconButton>
              )}
            </Badge>
          ))}
          {value.length > SHOWN && (
            <Text size="1" color="gray">
              and {(value.length - SHOWN).toLocaleString()} more
            </Text>
          )}
        </Flex>
      )}
    </Flex>
  );
}
