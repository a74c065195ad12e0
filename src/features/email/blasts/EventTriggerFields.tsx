import { Flex, Select, Text } from "@radix-ui/themes";
import { useViewer } from "@/session/ViewerProvider";
import { EVENT_TRIGGER_LABELS, type EventTrigger } from "./automationForm";
import { useTriggerTargets } from "../hooks/useTriggerTargets";

type EventTriggerFieldsProps = {
  trigger: EventTrigger;
  targetId: string;
  onTrigger(trigger: EventTrigger): void;
  onTarget(targetId: string): void;
  disabled?: boolean;
};

const ANY = "any";
const TARGET: Partial<
  Record<EventTrigger, { label: string; any: string; permission: "voters.view" | "forms.view" | "surveys.view" }>
> = {
  group_joined: { label: "Group", any: "Any group", permission: "voters.view" },
  form_submitted: { label: "Form", any: "Any form", permission: "forms.view" },
  survey_submitted: { label: "Survey", any: "Any survey", permission: "surveys.view" },
};

/** What starts the automation: a voter created, a group joined, a form or survey submitted (which one, or any). */
export function EventTriggerFields({
  trigger,
  targetId,
  onTrigger,
  onTarget,
  disabled = false,
}: EventTriggerFieldsProps) {
  const { can } = useViewer();
  const target = TARGET[trigger];
  const allowed = target ? can(target.permission) : false;
  const { groups, forms, surveys } = useTriggerTargets(trigger, allowed);
  const options: { id: string; name: string }[] | undefined =
    trigger === "group_joined"
      ? groups?.map((g) => ({ id: g._id, name: g.name }))
      : trigger === "form_submitted"
        ? forms?.forms.map((f) => ({ id: f.id, name: f.name }))
        : trigger === "survey_submitted"
          ? surveys?.map((s) => ({ id: s.id, name: s.name }))
          : [];
  // a target that is loading, gone or not readable here still shows as chosen
  const known = targetId === "" || (options ?? []).some((o) => o.id === targetId);
  const unknownLabel =
    options === undefined && allowed ? "Loading…" : `Unavailable ${target?.label.toLowerCase() ?? ""}`;

  return (
    <Flex gap="3" wrap="wrap" data-testid="email.trigger">
      <Flex direction="column" gap="1" style={{ flex: "1 1 200px" }}>
        <Text size="2" weight="medium" id="email-trigger-label">
          Trigger
        </Text>
        <Select.Root value={trigger} disabled={disabled} onValueChange={(v) => onTrigger(v as EventTrigger)}>
          <Select.Trigger aria-labelledby="email-trigger-label" />
          <Select.Content>
            {(Object.keys(EVENT_TRIGGER_LABELS) as EventTrigger[]).map((t) => (
              <Select.Item key={t} value={t}>
                {EVENT_TRIGGER_LABELS[t]}
              </Select.Item>
            ))}
          </Select.Content>
        </Select.Root>
      </Flex>
      {target && (
        <Flex direction="column" gap="1" style={{ flex: "1 1 200px" }}>
          <Text size="2" weight="medium" id="email-trigger-target-label">
            {target.label}
          </Text>
          <Select.Root
            value={targetId === "" ? ANY : targetId}
            disabled={disabled || !allowed}
            onValueChange={(v) => onTarget(v === ANY ? "" : v)}
          >
            <Select.Trigger aria-labelledby="email-trigger-target-label" />
            <Select.Content>
              <Select.Item value={ANY}>{target.any}</Select.Item>
              {!known && <Select.Item value={targetId}>{unknownLabel}</Select.Item>}
              {(options ?? []).map((o) => (
                <Select.Item key={o.id} value={o.id}>
                  {o.name}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
          {!allowed && (
            <Text size="1" color="gray">
              Choosing a {target.label.toLowerCase()} needs access to it.
            </Text>
          )}
        </Flex>
      )}
    </Flex>
  );
}
