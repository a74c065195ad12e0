import { Button, Dialog, Flex, Grid, Select, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { useViewer } from "@/session/ViewerProvider";
import { toast } from "@/ui/toast";
import type { SignOptions } from "../hooks/useSignOptions";
import { useMarkRemoved, useScheduleSign } from "../hooks/useSignActions";
import { addDays, dayInput, fromDayInput, startOfToday } from "../utils/signDisplay";
import { TEXTS } from "@convex/lib/texts";

type Target = { id: Id<"signs">; address: string };
const NONE = "none";

/** Schedule Sign Placement (spec/3 §2.6, §5): tomorrow at 09:00 and a team member by default. */
export function ScheduleSignDialog({
  target,
  options,
  onClose,
}: {
  target: Target | null;
  options: SignOptions | undefined;
  onClose(): void;
}) {
  const { me } = useViewer();
  const { schedule } = useScheduleSign();
  const mine = options?.members.find((m) => m.id === me?.userId)?.id ?? options?.members[0]?.id ?? NONE;
  const [date, setDate] = useState(() => dayInput(addDays(startOfToday(), 1)));
  const [time, setTime] = useState("09:00");
  const [responsible, setResponsible] = useState<string | null>(null);
  const [assignedBy, setAssignedBy] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const who = (v: string | null) => ((v ?? mine) === NONE ? null : ((v ?? mine) as Id<"users">));

  const save = async () => {
    if (!target) return;
    const at = fromDayInput(date, time);
    if (at === null) {
      toast.warning(TEXTS.titles.requiredMissing, { description: TEXTS.required.fields });
      return;
    }
    setBusy(true);
    try {
      await schedule({
        id: target.id,
        datePlaced: at,
        scheduledDate: date,
        scheduledTime: time,
        responsibleUserId: who(responsible),
        assignedById: who(assignedBy),
      });
      toast.success("Sign scheduled", { duration: 3000 });
      onClose();
    } catch (e) {
      toast.failure("Error scheduling sign", e);
    } finally {
      setBusy(false);
    }
  };

  const memberSelect = (label: string, value: string | null, set: (v: string) => void, id: string) => (
    <div>
      <Text as="div" size="2" weight="medium" id={id}>
        {label}
      </Text>
      <Select.Root value={value ?? mine} onValueChange={set}>
        <Select.Trigger aria-labelledby={id} style={{ width: "100%" }} />
        <Select.Content>
          <Select.Item value={NONE}>Nobody</Select.Item>
          {(options?.members ?? []).map((m) => (
            <Select.Item key={m.id} value={m.id}>
              {m.name}
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
    </div>
  );

  return (
    <Dialog.Root open={target !== null} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="460px">
        <Dialog.Title>Schedule Sign Placement</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          {target?.address}
        </Dialog.Description>
        <Flex direction="column" gap="3">
          <Grid columns="2" gap="3">
            <Text as="label" size="2" weight="medium">
              Date
              <TextField.Root type="date" value={date} onChange={(e) => setDate(e.target.value)} required />
            </Text>
            <Text as="label" size="2" weight="medium">
              Time
              <TextField.Root type="time" value={time} onChange={(e) => setTime(e.target.value)} required />
            </Text>
          </Grid>
          {memberSelect("Responsible User", responsible, setResponsible, "schedule-responsible")}
          {memberSelect("Assigned By", assignedBy, setAssignedBy, "schedule-assigned")}
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={busy} onClick={() => void save()}>
            Schedule
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** Mark Sign as Removed (spec/3 §4): the removal date, today by default. */
export function RemoveSignDialog({ target, onClose }: { target: Target | null; onClose(): void }) {
  const { markRemoved } = useMarkRemoved();
  const [date, setDate] = useState(() => dayInput(Date.now()));
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (!target) return;
    const at = fromDayInput(date);
    if (at === null) {
      toast.warning(TEXTS.titles.requiredMissing, { description: TEXTS.required.fields });
      return;
    }
    setBusy(true);
    try {
      await markRemoved({ id: target.id, date: at });
      toast.success("Sign marked as removed", { duration: 3000 });
      onClose();
    } catch (e) {
      toast.failure("Error removing sign", e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog.Root open={target !== null} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="420px">
        <Dialog.Title>Mark Sign as Removed</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          {target?.address}
        </Dialog.Description>
        <Text as="label" size="2" weight="medium">
          Removal Date
          <TextField.Root type="date" value={date} onChange={(e) => setDate(e.target.value)} required />
        </Text>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={busy} onClick={() => void save()}>
            Mark as Removed
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
