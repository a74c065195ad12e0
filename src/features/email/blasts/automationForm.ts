/**
 * The Automated tab's form over the campaign's shared setup (lib/records/mergeForm.ts): the send
 * type, the schedule (a local date and time, stored as epoch ms), the event trigger and the event
 * and filter rules (JSON text, as stored), as form strings and back.
 */
import type { EventTrigger } from "@convex/tables/emailBlast";
import type { FormValues, StoredValue } from "@/lib/records/mergeForm";

export type { EventTrigger };

export const EVENT_TRIGGER_LABELS: Record<EventTrigger, string> = {
  voter_created: "Voter created",
  group_joined: "Joined a group",
  form_submitted: "Form submitted",
  survey_submitted: "Survey submitted",
};

export const FIELD_LABELS: Record<string, string> = {
  sendType: "the send type",
  scheduledAt: "the schedule",
  eventTrigger: "the trigger",
  eventTargetId: "the trigger's target",
  eventRules: "the event rules",
  filterRules: "the filter rules",
};

const pad = (n: number) => String(n).padStart(2, "0");

/** Epoch ms as the form's local "YYYY-MM-DDTHH:mm" ("" for none). */
function scheduleToForm(ms: number | null): string {
  if (ms === null) return "";
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function splitSchedule(value: string | undefined): { date: string; time: string } {
  const [date = "", time = ""] = (value ?? "").split("T");
  return { date, time };
}

export function joinSchedule(date: string, time: string): string {
  return date || time ? `${date}T${time}` : "";
}

/** The local date and time as epoch ms in this browser's time zone; null unless both are set. */
export function scheduleToStored(value: string | undefined): number | null {
  const { date, time } = splitSchedule(value);
  if (!date || !time) return null;
  const ms = new Date(`${date}T${time}`).getTime();
  return Number.isFinite(ms) ? ms : null;
}

type SetupFields = {
  sendType: string;
  scheduledAt: number | null;
  eventTrigger: string;
  eventTargetId: string | null;
  /** the rules as stored (JSON text): the base an edit starts from */
  eventRulesJson: string;
  filterRulesJson: string;
};

export function automationForm(setup: SetupFields): FormValues {
  return {
    sendType: setup.sendType,
    scheduledAt: scheduleToForm(setup.scheduledAt),
    eventTrigger: setup.eventTrigger,
    eventTargetId: setup.eventTargetId ?? "",
    eventRules: setup.eventRulesJson,
    filterRules: setup.filterRulesJson,
  };
}

export function toStored(field: string, value: string): StoredValue {
  if (field === "scheduledAt") return scheduleToStored(value);
  if (field === "eventTargetId") return value === "" ? null : value;
  return value;
}

/** A teammate's stored value (from a refused save) as the form holds it. */
export function fromStored(field: string, theirs: StoredValue): string {
  if (field === "scheduledAt") return typeof theirs === "number" ? scheduleToForm(theirs) : "";
  if (field === "eventRules" || field === "filterRules") return typeof theirs === "string" ? theirs : "[]";
  return theirs === null ? "" : String(theirs);
}

/** The browser's time zone (shown beside the schedule; the server is told it on send). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function formatLocal(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
