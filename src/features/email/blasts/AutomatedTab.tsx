import { Badge, Button, Card, Flex, Heading, RadioGroup, Text } from "@radix-ui/themes";
import { useMemo, useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { editsOf } from "@/lib/records/mergeForm";
import { useMergedForm } from "@/lib/records/useMergedForm";
import { countOf } from "@/lib/plural";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { toast } from "@/ui/toast";
import { useMergedSave } from "@/ui/useMergedSave";
import {
  automationForm,
  FIELD_LABELS,
  fromStored,
  joinSchedule,
  scheduleToStored,
  splitSchedule,
  toStored,
  type EventTrigger,
} from "./automationForm";
import { AutomationConflicts } from "./AutomationConflicts";
import { EventTriggerFields } from "./EventTriggerFields";
import { RulesEditor } from "./RulesEditor";
import { rulesFromText, rulesToText, shownRules } from "./rulesForm";
import { ScheduleFields } from "./ScheduleFields";
import { SEND_BUTTON, SEND_TYPE_LABELS, sendProblem, type SendType } from "./sendChecks";
import { SendProgress } from "./SendProgress";
import { SendStatusPanel } from "./SendStatusPanel";
import { showSaveFailure, useAutomationSetup, useRecipientEstimate } from "../hooks/useBlastSetup";
import { useSendActions } from "../hooks/useSendActions";
import { Loading } from "@/ui/Loading";
import { RecordGone } from "@/ui/RecordGone";

type AutomatedTabProps = { campaignId: Id<"emailCampaigns">; canManage: boolean };

/**
 * Automated (spec/2 §2.2): send now, on a schedule, on an event or to voters matching a filter.
 * The choice is part of the campaign's shared setup: edits stay in this form until saved (or sent),
 * teammates' saves flow in live and a field both changed asks whose value to keep.
 */
export function AutomatedTab({ campaignId, canManage }: AutomatedTabProps) {
  const { setup, editState, update } = useAutomationSetup(campaignId);
  const saved = useMemo(() => (setup ? automationForm(setup) : undefined), [setup]);
  const merged = useMergedForm(campaignId, saved);
  const estimate = useRecipientEstimate(setup);
  const actions = useSendActions(campaignId);
  const [rescheduling, setRescheduling] = useState(false);
  const [busy, setBusy] = useState(false);
  /** Send now waits for this confirmation: it reaches the whole audience at once */
  const [confirming, setConfirming] = useState(false);
  const { save } = useMergedSave(
    merged,
    (c) => [c.field, fromStored(c.field, c.theirs)],
    (k) => FIELD_LABELS[k],
  );
  const form = merged.form;

  if (setup === null) return <RecordGone what="campaign" />;
  if (setup === undefined || form === null) return <Loading />;

  const values = form.values;
  const sendType = values.sendType as SendType;
  const { date, time } = splitSchedule(values.scheduledAt);
  const eventRules = rulesFromText(values.eventRules);
  const filterRules = rulesFromText(values.filterRules);
  const status = setup.status;
  const locked = !canManage || status === "sent" || status === "automated" || (status === "scheduled" && !rescheduling);
  const touched = merged.touched.length > 0;

  /** Saves the touched fields; false (with the reason shown) when refused. */
  const saveForm = () =>
    save(async () => {
      if (touched) await update({ id: campaignId, edits: editsOf(form, toStored) });
    }, showSaveFailure);

  const handleSave = async () => {
    setBusy(true);
    if (await saveForm()) toast.success("Setup saved");
    setBusy(false);
  };

  const handleSend = async (confirmed = false) => {
    const problem = sendProblem({
      campaignId,
      recipients: estimate?.total,
      now: Date.now(),
      sendType,
      scheduleDate: date,
      scheduleTime: time,
      eventRules: shownRules(eventRules, true),
      filterRules: shownRules(filterRules, false),
    });
    if (problem) {
      toast.error(problem.title, { description: problem.message });
      return;
    }
    if (sendType === "now" && !confirmed) {
      setConfirming(true);
      return;
    }
    setBusy(true);
    if ((await saveForm()) && (await actions.send(sendType, scheduleToStored(values.scheduledAt))))
      setRescheduling(false);
    setBusy(false);
  };

  return (
    <Flex direction="column" gap="4" data-testid="email.automated">
      <SendStatusPanel
        status={status}
        scheduledAt={setup.scheduledAt}
        sentAt={setup.sentAt}
        canManage={canManage}
        rescheduling={rescheduling}
        onReschedule={() => {
          setRescheduling(true);
          merged.setField("sendType", "schedule");
        }}
        onCancelSchedule={() => void actions.cancelSchedule().then(() => setRescheduling(false))}
        onStopAutomation={() => void actions.stopAutomation()}
      />
      <Card>
        <Flex direction="column" gap="4">
          <Flex justify="between" align="center" gap="2" wrap="wrap">
            <Heading as="h2" size="3" id="email-send-type">
              How to send
            </Heading>
            {touched && <Badge color="orange">Unsaved changes</Badge>}
          </Flex>
          <RadioGroup.Root
            value={sendType}
            disabled={locked}
            onValueChange={(v) => merged.setField("sendType", v)}
            aria-labelledby="email-send-type"
          >
            <Flex gap="4" wrap="wrap">
              {(Object.keys(SEND_TYPE_LABELS) as SendType[]).map((t) => (
                <RadioGroup.Item key={t} value={t}>
                  {SEND_TYPE_LABELS[t]}
                </RadioGroup.Item>
              ))}
            </Flex>
          </RadioGroup.Root>
          {sendType === "now" && (
            <Text size="2" color="gray">
              The campaign goes to the recipients chosen on the Send To tab as soon as you send it.
            </Text>
          )}
          {sendType === "schedule" && (
            <ScheduleFields
              date={date}
              time={time}
              disabled={locked}
              onChange={(d, t) => merged.setField("scheduledAt", joinSchedule(d, t))}
            />
          )}
          {sendType === "event" && (
            <Flex direction="column" gap="3">
              <EventTriggerFields
                trigger={values.eventTrigger as EventTrigger}
                targetId={values.eventTargetId ?? ""}
                disabled={locked}
                onTrigger={(t) => {
                  merged.setField("eventTrigger", t);
                  merged.setField("eventTargetId", "");
                }}
                onTarget={(id) => merged.setField("eventTargetId", id)}
              />
              <Text size="2" weight="medium">
                Send when the voter matches all of these rules
              </Text>
              <RulesEditor
                rules={eventRules}
                event
                disabled={locked}
                label="Event rule"
                testId="email.eventRules"
                onChange={(r) => merged.setField("eventRules", rulesToText(r))}
              />
            </Flex>
          )}
          {sendType === "filter" && (
            <Flex direction="column" gap="3">
              <Text size="2" weight="medium">
                Send to voters matching all of these conditions
              </Text>
              <RulesEditor
                rules={filterRules}
                disabled={locked}
                label="Filter rule"
                testId="email.filterRules"
                onChange={(r) => merged.setField("filterRules", rulesToText(r))}
              />
            </Flex>
          )}
          <AutomationConflicts
            conflicts={form.conflicts}
            editState={editState}
            onKeepMine={merged.keepMine}
            onTakeTheirs={merged.takeTheirs}
          />
          {!locked && (
            <Flex gap="2" wrap="wrap" justify="end">
              <Button variant="soft" disabled={!touched || busy} onClick={() => void handleSave()}>
                Save setup
              </Button>
              <Button loading={busy} onClick={() => void handleSend()} data-testid="email.send">
                {SEND_BUTTON[sendType]}
              </Button>
            </Flex>
          )}
        </Flex>
      </Card>
      <SendProgress campaignId={campaignId} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Send Campaign"
        description={
          estimate === undefined
            ? "Send this campaign to all its recipients now? This cannot be undone."
            : `Send this campaign to ${countOf(estimate.total, "recipient")} now? This cannot be undone.`
        }
        confirmLabel="Send now"
        color="indigo"
        onConfirm={() => void handleSend(true)}
      />
    </Flex>
  );
}
