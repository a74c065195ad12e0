import { Button, Checkbox, Dialog, Flex, Select, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { WALK_LIST_STATUSES, type WalkListStatus } from "@convex/tables/walkLists";
import { countOf } from "@/lib/plural";
import { errorMessage, toast } from "@/ui/toast";
import { useWalkListActions, type TurfOptions, type TurfRow } from "../hooks/useWalkLists";

const DAY = 86_400_000;
const dateInput = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Create Walk List: from a turf, with a name, a script, a status, an expiry (30 days) and canvassers. */
export function WalkListForm(props: {
  turf: TurfRow;
  options: TurfOptions | undefined;
  onClose(id?: Id<"walkLists">): void;
}) {
  const { turf, options } = props;
  const { create } = useWalkListActions();
  const [name, setName] = useState(turf.name);
  const [surveyId, setSurveyId] = useState<string>("none");
  const [status, setStatus] = useState<WalkListStatus>("Active");
  const [expiry, setExpiry] = useState(dateInput(Date.now() + 30 * DAY));
  const [assignees, setAssignees] = useState<Id<"users">[]>([]);
  const [taken, setTaken] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (leaveOutTaken: boolean) => {
    setBusy(true);
    try {
      // the end of the chosen day, local time
      const expiresAt = new Date(`${expiry}T23:59:59`).getTime();
      const r = await create({
        name,
        turfId: turf.id,
        surveyId: surveyId === "none" ? null : (surveyId as Id<"surveys">),
        status,
        expiresAt,
        assignees,
        leaveOutTaken,
      });
      toast.success(`Walk list "${name.trim()}" created`, {
        description: `${countOf(r.doors, "door")}${r.leftOut ? `, ${countOf(r.leftOut, "door")} left out (in other lists)` : ""}`,
      });
      props.onClose(r.id);
    } catch (e) {
      const code = (e as { data?: { code?: string } }).data?.code;
      if (code === "CONFLICT") setTaken(errorMessage(e));
      else toast.failure("Could not create the walk list", e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(o) => !o && props.onClose()}>
      <Dialog.Content maxWidth="520px" aria-describedby={undefined}>
        <Dialog.Title>Create Walk List</Dialog.Title>
        <Text size="2" color="gray" as="p" mb="3">
          {`From the turf ${turf.name}: ${countOf(turf.doors, "door")}, ${countOf(turf.voters, "voter")}.`}
        </Text>
        <Flex direction="column" gap="3">
          <label>
            <Text size="2" weight="medium">
              Name
            </Text>
            <TextField.Root value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            <Text size="2" weight="medium" as="div">
              Script (survey)
            </Text>
            <Select.Root value={surveyId} onValueChange={setSurveyId}>
              <Select.Trigger aria-label="Script (survey)" style={{ width: "100%" }} />
              <Select.Content>
                <Select.Item value="none">No script</Select.Item>
                {options?.surveys.map((s) => (
                  <Select.Item key={s.id} value={s.id}>
                    {s.name}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </label>
          <Flex gap="3" wrap="wrap">
            <label>
              <Text size="2" weight="medium" as="div">
                Status
              </Text>
              <Select.Root value={status} onValueChange={(s) => setStatus(s as WalkListStatus)}>
                <Select.Trigger aria-label="Status" />
                <Select.Content>
                  {WALK_LIST_STATUSES.map((s) => (
                    <Select.Item key={s} value={s}>
                      {s}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </label>
            <label>
              <Text size="2" weight="medium" as="div">
                Expires
              </Text>
              <TextField.Root type="date" value={expiry} onChange={(e) => setExpiry(e.target.value)} />
            </label>
          </Flex>
          <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
            <Text as="div" size="2" weight="medium" asChild>
              <legend>Canvassers</legend>
            </Text>
            <Flex direction="column" gap="1" style={{ maxHeight: 180, overflowY: "auto" }}>
              {options?.members.map((m) => (
                <Text as="label" size="2" key={m.id}>
                  <Flex gap="2" align="center">
                    <Checkbox
                      checked={assignees.includes(m.id)}
                      onCheckedChange={() =>
                        setAssignees((a) => (a.includes(m.id) ? a.filter((x) => x !== m.id) : [...a, m.id]))
                      }
                    />
                    {m.name}
                    {m.roles.includes("volunteer") && (
                      <Text size="1" color="gray">
                        Volunteer
                      </Text>
                    )}
                  </Flex>
                </Text>
              ))}
            </Flex>
          </fieldset>
          {taken && (
            <Text size="2" color="red" role="alert" data-testid="walkList.taken">
              {taken}
            </Text>
          )}
        </Flex>
        <Flex gap="2" justify="end" mt="4" wrap="wrap">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          {taken && (
            <Button variant="soft" disabled={busy} onClick={() => void submit(true)}>
              Create without those doors
            </Button>
          )}
          <Button disabled={busy || !name.trim()} onClick={() => void submit(false)}>
            Create Walk List
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
