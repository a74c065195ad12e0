/**
 * The send checks of the email dashboard (spec/2 §5 "Sending"), in the spec's order and words. The
 * browser runs them first so the user hears at once; the server (api.emailBlasts.send) runs them
 * again and also checks that the recipients resolve to at least one address.
 */
import { ruleComplete, type EmailRule } from "@convex/lib/email/rules";
import type { SendType } from "@convex/tables/emailBlast";

export type { SendType };
export type SendProblem = { title: string; message: string };

export const SEND_PROBLEMS = {
  noCampaign: { title: "No campaign selected", message: "Please select a campaign first" },
  noRecipients: { title: "No recipients selected", message: "Please select recipients in the Send To tab" },
  scheduleIncomplete: { title: "Schedule incomplete", message: "Please select both date and time for scheduled send" },
  eventRules: { title: "Event rules incomplete", message: "Please complete all event trigger rules" },
  filterRules: { title: "Filter rules incomplete", message: "Please complete all filter conditions" },
  schedulePast: { title: "Schedule incomplete", message: "The scheduled time has passed. Please pick a time in the future." },
  scheduleTooFar: { title: "Schedule incomplete", message: "A send can be scheduled at most a year ahead." },
} as const satisfies Record<string, SendProblem>;

export type SendCheckInput = {
  /** null when no saved campaign is selected (?campaign=new) */
  campaignId: string | null;
  /** the estimated recipient total; undefined while it loads (the server decides then) */
  recipients: number | undefined;
  now: number;
  sendType: SendType;
  scheduleDate: string;
  scheduleTime: string;
  eventRules: EmailRule[];
  filterRules: EmailRule[];
};

/** How far ahead a send may be scheduled (the server's bound). */
const MAX_SCHEDULE_AHEAD_MS = 366 * 86_400_000;

/**
 * The first check that fails, or null when the send may go to the server. Recipients chosen on
 * Send To matter for a send now or a scheduled one; automations find theirs by event or filter.
 */
export function sendProblem(input: SendCheckInput): SendProblem | null {
  if (!input.campaignId) return SEND_PROBLEMS.noCampaign;
  const audienceBased = input.sendType === "now" || input.sendType === "schedule";
  if (audienceBased && input.recipients !== undefined && input.recipients <= 0) return SEND_PROBLEMS.noRecipients;
  if (input.sendType === "schedule") {
    if (!input.scheduleDate.trim() || !input.scheduleTime.trim()) return SEND_PROBLEMS.scheduleIncomplete;
    const at = new Date(`${input.scheduleDate}T${input.scheduleTime}`).getTime();
    if (!Number.isFinite(at)) return SEND_PROBLEMS.scheduleIncomplete;
    if (at <= input.now) return SEND_PROBLEMS.schedulePast;
    if (at > input.now + MAX_SCHEDULE_AHEAD_MS) return SEND_PROBLEMS.scheduleTooFar;
  }
  if (input.sendType === "event" && !input.eventRules.every(ruleComplete)) return SEND_PROBLEMS.eventRules;
  if (input.sendType === "filter" && !input.filterRules.every(ruleComplete)) return SEND_PROBLEMS.filterRules;
  return null;
}

export const SEND_TYPE_LABELS: Record<SendType, string> = { now: "Send now", schedule: "Schedule", event: "Event-based", filter: "Filter-based" };

/** The primary button's text for each send type. */
export const SEND_BUTTON: Record<SendType, string> = { now: "Send now", schedule: "Schedule send", event: "Activate automation", filter: "Activate automation" };
