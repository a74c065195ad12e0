import { Flex, Text, TextField } from "@radix-ui/themes";
import { browserTimeZone } from "./automationForm";

type ScheduleFieldsProps = {
  date: string;
  time: string;
  onChange(date: string, time: string): void;
  disabled?: boolean;
};

/** The scheduled send's date and time, in this browser's time zone (shown). */
export function ScheduleFields({ date, time, onChange, disabled = false }: ScheduleFieldsProps) {
  return (
    <Flex direction="column" gap="2" data-testid="email.schedule">
      <Flex gap="3" wrap="wrap">
        <label style={{ flex: "1 1 160px" }}>
          <Text as="div" size="2" weight="medium">
            Date
          </Text>
          <TextField.Root
            type="date"
            value={date}
            disabled={disabled}
            onChange={(e) => onChange(e.target.value, time)}
          />
        </label>
        <label style={{ flex: "1 1 120px" }}>
          <Text as="div" size="2" weight="medium">
            Time
          </Text>
          <TextField.Root
            type="time"
            value={time}
            disabled={disabled}
            onChange={(e) => onChange(date, e.target.value)}
          />
        </label>
      </Flex>
      <Text size="1" color="gray">
        Time zone: {browserTimeZone()}
      </Text>
    </Flex>
  );
}
