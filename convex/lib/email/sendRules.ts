/**
 * The send checks of an email blast (spec/2 §5 "Sending"), in the spec's order and words: one rule
 * set that the browser runs first (so the user hears at once) and the server runs again before
 * anything is sent (model/emailBlast.ts checkSend), which also counts the recipients itself.
 */
import type { SendType } from "../../tables/emailBlast";
import { ruleComplete, type EmailRule } from "./rules";

export type { SendType };
export type SendProblem = { title: string; message: string };

export const SEND_PROBLEMS = {
  noCampaign: { title: "No campaign selected", message: "Please select a campaign first" },
  noRecipients: { title: "No recipients selected", message: "Please select recipients in the Send To tab" },
  scheduleIncomplete: { title: "Schedule incomplete", message: "Please select both date and time for scheduled send" },
  eventRules: { title: "Event rules incomplete", message: "Please complete all event trigger rules" },
  filterRules: { title: "Filter rules incomplete", message: "Please complete all filter conditions" },
  schedulePast: {
    title: "Schedule incomplete",
    message: "The scheduled time has passed. Please pick a time in the future.",
  },
  scheduleTooFar: { title: "Schedule incomplete", message: "A send can be scheduled at most a year ahead." },
} as const satisfies Record<string, SendProblem>;

/** How far ahead a send may be scheduled. */
export const MAX_SCHEDULE_AHEAD_MS = 366 * 86_400_000;

export type SendCheck = {
  hasCampaign: boolean;
  sendType: SendType;
  /** recipients of a send now or a scheduled one; undefined when not known (the server decides) */
  recipients: number | undefined;
  /** the scheduled time; null when no complete date and time was given */
  scheduledAt: number | null;
  now: number;
  eventRules: EmailRule[];
  filterRules: EmailRule[];
};

/**
 * The first check that fails, or null. Recipients chosen on Send To matter for a send now or a
 * scheduled one; automations find theirs by event or filter and need every rule complete.
 */
export function sendProblem(c: SendCheck): SendProblem | null {
  if (!c.hasCampaign) return SEND_PROBLEMS.noCampaign;
  const audienceBased = c.sendType === "now" || c.sendType === "schedule";
  if (audienceBased && c.recipients !== undefined && c.recipients <= 0) return SEND_PROBLEMS.noRecipients;
  if (c.sendType === "schedule") {
    if (c.scheduledAt === null || !Number.isFinite(c.scheduledAt)) return SEND_PROBLEMS.scheduleIncomplete;
    if (c.scheduledAt <= c.now) return SEND_PROBLEMS.schedulePast;
    if (c.scheduledAt > c.now + MAX_SCHEDULE_AHEAD_MS) return SEND_PROBLEMS.scheduleTooFar;
  }
  if (c.sendType === "event" && !rulesComplete(c.eventRules)) return SEND_PROBLEMS.eventRules;
  if (c.sendType === "filter" && !rulesComplete(c.filterRules)) return SEND_PROBLEMS.filterRules;
  return null;
}

function rulesComplete(rules: EmailRule[]): boolean {
  return rules.length > 0 && rules.every(ruleComplete);
}
