import { Flex } from "@radix-ui/themes";
import { FieldConflict } from "@/ui/FieldConflict";
import { FIELD_LABELS, EVENT_TRIGGER_LABELS, scheduleToStored, formatLocal, type EventTrigger } from "./automationForm";
import { rulesCount } from "./rulesForm";
import { SEND_TYPE_LABELS, type SendType } from "./sendChecks";

type AutomationConflictsProps = {
  conflicts: Record<string, string>;
  editState: { fields: Record<string, { name: string } | undefined> } | undefined;
  onKeepMine(field: string): void;
  onTakeTheirs(field: string): void;
};

/** A teammate's saved value of a field, in words. */
function shown(field: string, theirs: string): string {
  if (field === "sendType") return SEND_TYPE_LABELS[theirs as SendType] ?? theirs;
  if (field === "eventTrigger") return EVENT_TRIGGER_LABELS[theirs as EventTrigger] ?? theirs;
  if (field === "scheduledAt") {
    const ms = scheduleToStored(theirs);
    return ms === null ? "" : formatLocal(ms);
  }
  if (field === "eventTargetId") return theirs === "" ? "any" : "another choice";
  if (field === "eventRules" || field === "filterRules") return rulesCount(theirs);
  return theirs;
}

/** The fields a teammate saved while this user was editing them: keep mine or take theirs, each. */
export function AutomationConflicts({ conflicts, editState, onKeepMine, onTakeTheirs }: AutomationConflictsProps) {
  const fields = Object.keys(conflicts);
  if (fields.length === 0) return null;
  return (
    <Flex direction="column" gap="2" data-testid="email.automated.conflicts">
      {fields.map((f) => (
        <FieldConflict
          key={f}
          label={FIELD_LABELS[f] ?? f}
          theirs={shown(f, conflicts[f])}
          by={editState?.fields[f]?.name}
          onKeepMine={() => onKeepMine(f)}
          onTakeTheirs={() => onTakeTheirs(f)}
        />
      ))}
    </Flex>
  );
}
