import { ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { Button, Callout, Flex, Text, TextArea } from "@radix-ui/themes";
import { useId } from "react";
import { hasOptOutText, segmentInfo } from "@convex/lib/sms/rules";
import { MAX_SMS_BODY } from "@convex/tables/sms";
import { optOutFooter } from "../utils/smsDisplay";

type MessageComposerProps = {
  value: string;
  onChange(value: string): void;
  /** the organisation's name: offers to add the opt-out line when the message lacks it */
  orgName?: string;
  label?: string;
};

/**
 * The message box with its character and segment count (GSM-7: 160 a segment, 153 when split;
 * UCS-2: 70 / 67) and a warning naming the characters that force UCS-2.
 */
export function MessageComposer({ value, onChange, orgName, label = "Message" }: MessageComposerProps) {
  const id = useId();
  const info = segmentInfo(value);
  const missingOptOut =
    orgName !== undefined &&
    value.trim() !== "" &&
    (!hasOptOutText(value) || !value.toLowerCase().includes(orgName.toLowerCase()));
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <TextArea
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        rows={4}
        maxLength={MAX_SMS_BODY}
        placeholder="Type your message..."
      />
      <Flex justify="between" wrap="wrap" gap="2">
        <Text size="1" color="gray" data-testid="sms.composer.count">
          {info.characters.toLocaleString()} characters · {info.segments} {info.segments === 1 ? "segment" : "segments"}{" "}
          · {info.encoding}
        </Text>
        {missingOptOut && (
          <Button
            type="button"
            size="1"
            variant="ghost"
            onClick={() => onChange(`${value.trimEnd()}\n${optOutFooter(orgName)}`)}
          >
            Add opt-out line
          </Button>
        )}
      </Flex>
      {info.encoding === "UCS-2" && (
        <Callout.Root color="amber" size="1" role="status" data-testid="sms.composer.unicode">
          <Callout.Icon>
            <ExclamationTriangleIcon />
          </Callout.Icon>
          <Callout.Text>
            {info.unicodeCharacters.map((c) => `“${c}”`).join(", ")}{" "}
            {info.unicodeCharacters.length === 1 ? "is not a GSM-7 character" : "are not GSM-7 characters"}: the message
            is sent as UCS-2, 70 characters a segment (67 when split) instead of 160.
          </Callout.Text>
        </Callout.Root>
      )}
    </Flex>
  );
}
